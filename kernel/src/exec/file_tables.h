// Tables named by a file in SQL: `FROM 'hits.csv'`, `FROM read_csv('x.tsv', delim => '\t')`,
// `FROM 'hits.laneql'`, `FROM 'x.parquet'`, and where COPY ... TO writes. The statement is
// parsed; these functions pick the reader or writer and turn its options and errors into SQL
// terms (the option's name and place in the query).
#ifndef LANEQL_EXEC_FILE_TABLES_H_
#define LANEQL_EXEC_FILE_TABLES_H_

#include <memory>

#include "laneql/result.h"
#include "laneql/table.h"
#include "src/plan/binder.h"
#include "src/sql/ast.h"

namespace laneql {
namespace exec {

// Reads the table `ref` names (kFile or kFunction). CSV parsing uses up to `threads` threads.
bool LoadFileTable(const sql::TableRef& ref, int threads, std::shared_ptr<const Table>* out,
                   plan::BindError* error);

// Writes `result` where `copy` says, in the format its options or the path's extension say
// (.csv, .tsv, .laneql). Returns DuckDB's answer to COPY: one BIGINT column "Count" holding
// the rows written, or an error.
Result CopyResultToFile(const sql::CopyStatement& copy, Result result);

}  // namespace exec
}  // namespace laneql

#endif  // LANEQL_EXEC_FILE_TABLES_H_
