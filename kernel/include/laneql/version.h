// laneql's version, one number for the library, the CLI and the npm package.
#ifndef LANEQL_VERSION_H_
#define LANEQL_VERSION_H_

#define LANEQL_VERSION_STRING "0.1.0"

namespace laneql {

inline const char* Version() { return LANEQL_VERSION_STRING; }

}  // namespace laneql

#endif  // LANEQL_VERSION_H_
