// The expression evaluator: a bound expression (src/plan/bound_expr.h) over a set of rows of
// some columns -> a Vec. Column references over a contiguous, 64-aligned range borrow the
// column's buffers; everything else is computed into owned buffers, a batch at a time.
#ifndef LANEQL_EXEC_EXPR_EVAL_H_
#define LANEQL_EXEC_EXPR_EVAL_H_

#include <string>
#include <vector>

#include "laneql/column.h"
#include "laneql/int128.h"
#include "laneql/table.h"
#include "src/exec/vector.h"
#include "src/plan/bound_expr.h"

namespace laneql {
namespace exec {

struct RowSet {
  size_t begin = 0;               // contiguous rows [begin, begin + count) when ids is null
  size_t count = 0;
  const uint32_t* ids = nullptr;  // else the rows ids[0 .. count)
  // Optionally, with ids: the same rows as the set bits of a mask over the mask_rows rows from
  // mask_begin (a multiple of 64), so that columns are compressed (sequential loads) instead of
  // gathered. An owner of an owned scan without a WHERE keeps about every other row of a batch.
  const uint64_t* mask = nullptr;
  size_t mask_begin = 0, mask_rows = 0;
};

class Evaluator {
 public:
  // `columns`: what kColumn indices refer to (a table's columns, or an aggregation's output).
  explicit Evaluator(std::vector<const Column*> columns) : columns_(std::move(columns)) {}
  // On failure: false, with "<kind> error at line L, column C: ..." in *error.
  bool Eval(const plan::BoundExpr& expr, const RowSet& rows, Vec* out, std::string* error);

 private:
  bool EvalColumn(const plan::BoundExpr& expr, const RowSet& rows, Vec* out, std::string* error);
  bool EvalCall(const plan::BoundExpr& expr, const RowSet& rows, Vec* out, std::string* error);
  // CASE with each WHEN and result evaluated only on its rows (expr_case.cc): the fallback when
  // evaluating a branch over all rows failed.
  bool EvalCaseByBranch(const plan::BoundExpr& expr, const RowSet& rows, Vec* out,
                        std::string* error);
  std::vector<const Column*> columns_;
};

// Calls f(T{}) with T the C++ type of a fixed-width TypeId (dates int32, timestamps and times
// int64, bool uint8, int128, decimals and intervals Int128). Returns false for string types.
template <class F>
bool VisitFixed(TypeId type, F&& f) {
  switch (PhysicalType(type)) {  // a decimal is its scaled Int128
    case TypeId::kInt8: f(int8_t{}); return true;
    case TypeId::kInt16: f(int16_t{}); return true;
    case TypeId::kInt32:
    case TypeId::kDate32: f(int32_t{}); return true;
    case TypeId::kInt64:
    case TypeId::kTimestampSeconds:
    case TypeId::kTimestampMicros:
    case TypeId::kTime: f(int64_t{}); return true;
    case TypeId::kUInt8:
    case TypeId::kBool: f(uint8_t{}); return true;
    case TypeId::kUInt16: f(uint16_t{}); return true;
    case TypeId::kUInt32: f(uint32_t{}); return true;
    case TypeId::kUInt64: f(uint64_t{}); return true;
    case TypeId::kInt128:
    case TypeId::kInterval: f(Int128{}); return true;  // the packed int128 (laneql/interval.h)
    case TypeId::kFloat32: f(float{}); return true;
    case TypeId::kFloat64: f(double{}); return true;
    default: return false;
  }
}

// -1 / 0 / 1 in DuckDB's order: floats with NaN the largest value and equal to itself, -0 = +0.
template <class T>
int TotalCompare(T x, T y) {
  if constexpr (std::is_floating_point_v<T>) {
    const bool xn = x != x, yn = y != y;
    if (xn || yn) return xn == yn ? 0 : (xn ? 1 : -1);
  }
  return x < y ? -1 : (y < x ? 1 : 0);
}
// Row i of `a` against row j of `b` (same type; strings byte-wise), NULLs not considered.
int CompareRows(const Vec& a, size_t i, const Vec& b, size_t j);
// The columns of a table, for an Evaluator over it.
std::vector<const Column*> TableColumns(const Table& table);

// Evaluates an expression whose leaves are all constants.
bool EvaluateConstant(const plan::BoundExpr& expr, plan::Value* out, std::string* error);
// A single value converted to `to`, with DuckDB's rules (range-checked, strings parsed).
bool CastValue(const plan::Value& in, TypeId to, plan::Value* out, std::string* error);
// CastValue's cases with a DECIMAL on either side, but to text (cast_decimal.cc).
bool CastDecimalValue(const plan::Value& in, TypeId to, plan::Value* out, std::string* error);
// A vector cast to DECIMAL from a DECIMAL, a number or BOOLEAN, or from a DECIMAL to a float,
// without Values; *handled false (nothing done) for the other casts and TRY_CAST.
bool CastDecimalVec(const plan::BoundExpr& expr, const Vec& in, Vec* out, std::string* error, bool* handled);
// A DATE (days), TIMESTAMP_S (seconds) or TIMESTAMP (microseconds) value as microseconds since
// 1970-01-01 (a DATE as its midnight).
int64_t TemporalMicros(TypeId type, int64_t v);
// Row i of a Vec as a Value.
plan::Value VecValue(const Vec& vec, size_t i);
// "<kind> error at line L, column C: <message>".
std::string ErrorAt(const plan::BoundExpr& expr, const char* kind, const std::string& message);

// The library's scalar functions (Fn::kScalar): functions_math.cc dispatches, the string ones
// run in functions_string.cc.
// list_value, len and list_extract (functions_list.cc).
bool EvalListFunction(const plan::BoundExpr& expr, std::vector<Vec>& args, size_t count, Vec* out, std::string* error);
bool EvalScalarFunction(const plan::BoundExpr& expr, std::vector<Vec>& args, size_t count, Vec* out,
                        std::string* error);
bool EvalStringFunction(const plan::BoundExpr& expr, std::vector<Vec>& args, size_t count, Vec* out,
                        std::string* error);
// TIME and INTERVAL arithmetic and functions (functions_interval.cc).
bool EvalIntervalFunction(const plan::BoundExpr& expr, std::vector<Vec>& args, size_t count, Vec* out,
                          std::string* error);
// format() and printf() (functions_format.cc), hash() (functions_hash.cc).
bool EvalFormatFunction(const plan::BoundExpr& expr, std::vector<Vec>& args, size_t count, Vec* out,
                        std::string* error);
bool EvalHashFunction(const plan::BoundExpr& expr, std::vector<Vec>& args, size_t count, Vec* out,
                      std::string* error);
// Short string GROUP BY keys packed into integers and back (functions_short_string.cc).
bool EvalShortStringKey(const plan::BoundExpr& expr, std::vector<Vec>& args, size_t count, Vec* out,
                        std::string* error);
// Dates (functions_date.cc): Fn::kExtract and Fn::kDateTrunc nodes, and the library's date
// functions.
bool EvalDatePart(const plan::BoundExpr& expr, std::vector<Vec>& args, size_t count, Vec* out, std::string* error);
bool EvalDateFunction(const plan::BoundExpr& expr, std::vector<Vec>& args, size_t count, Vec* out,
                      std::string* error);

// CASE over its evaluated WHENs and results (expr_case_select.cc).
bool EvalCaseSelect(const plan::BoundExpr& expr, const std::vector<Vec>& args, size_t count, Vec* out,
                    std::string* error);

// Evaluator pieces in expr_functions.cc (strings, dates, CASE, LIKE, IN, casts).
bool EvalFunction(const plan::BoundExpr& expr, std::vector<Vec>& args, size_t count, Vec* out,
                  std::string* error);

}  // namespace exec
}  // namespace laneql

#endif  // LANEQL_EXEC_EXPR_EVAL_H_
