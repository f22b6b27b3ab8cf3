// Internal to the TPC-H generator: the specification's fixed value lists (regions, nations,
// part name colours, types, containers, segments, priorities, ship instructions and modes) and
// the text of its comment columns.
#ifndef LANEQL_STORAGE_TPCH_TEXT_H_
#define LANEQL_STORAGE_TPCH_TEXT_H_

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace laneql::tpch {

// A fixed list of words; Pick(h) takes one uniformly by the high bits of a hash.
struct WordList {
  const std::string_view* words;
  uint32_t size;
  std::string_view Pick(uint64_t h) const {
    return words[static_cast<uint32_t>(((h >> 32) * size) >> 32)];
  }
};

struct NationSpec {
  std::string_view name;
  int32_t region;
};
inline constexpr int kNations = 25;
inline constexpr int kRegions = 5;
extern const NationSpec kNationList[kNations];
extern const std::string_view kRegionNames[kRegions];

extern const WordList kColours;             // p_name: 92 words, 5 distinct per part
extern const WordList kTypeSizes;           // p_type "SIZE FINISH METAL": 6 x 5 x 5 types
extern const WordList kTypeFinishes;
extern const WordList kTypeMetals;
extern const WordList kContainerSizes;      // p_container "SIZE KIND": 5 x 8 containers
extern const WordList kContainerKinds;
extern const WordList kSegments;            // c_mktsegment
extern const WordList kPriorities;          // o_orderpriority
extern const WordList kShipInstructions;    // l_shipinstruct
extern const WordList kShipModes;           // l_shipmode

// The text the comment columns are cut from, as the specification builds it: sentences of its
// grammar (noun phrase, verb phrase, optional prepositional phrase, terminator) over its
// weighted word lists, concatenated into one pool; a comment is a substring of it at a random
// offset. Built once per seed (a few milliseconds), shared read-only by every thread.
class TextPool {
 public:
  explicit TextPool(uint64_t seed);
  // `length` bytes at a position chosen by `h` (length must not exceed size()).
  std::string_view Cut(uint64_t h, size_t length) const;
  size_t size() const { return text_.size(); }

 private:
  std::string text_;
};

}  // namespace laneql::tpch

#endif  // LANEQL_STORAGE_TPCH_TEXT_H_
