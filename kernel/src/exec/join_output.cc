// What each kind of join returns from its surviving pairs (CompleteJoin), the NULL-key facts
// it needs (RowsWithNullKey, AnyRowWithNullKey), and the gathers that build its columns
// (GatherRows). See hash_join.h.
#include <algorithm>
#include <cstring>
#include <new>

#include "laneql/aligned_buffer.h"
#include "laneql/bitmask.h"
#include "laneql/gather.h"
#include "src/common/query_budget.h"
#include "src/exec/hash_join.h"

namespace laneql {
namespace exec {
namespace {

// Probe rows that have at least one pair (`matched` sorted by probe row).
size_t DistinctProbeRows(const MatchPairs& matched) {
  size_t distinct = 0;
  for (size_t i = 0; i < matched.size(); ++i) {
    distinct += i == 0 || matched.probe_rows[i] != matched.probe_rows[i - 1];
  }
  return distinct;
}

// Appends the pairs, with every probe row in [0, probe_rows) that has none placed (with
// build row kNoRow) where its number sorts: kLeft's order.
void AppendLeft(const MatchPairs& matched, size_t probe_rows, JoinOutput* out) {
  size_t p = 0;
  for (size_t row = 0; row < probe_rows; ++row) {
    if (p < matched.size() && matched.probe_rows[p] == row) {
      for (; p < matched.size() && matched.probe_rows[p] == row; ++p) {
        out->probe_rows.push_back(static_cast<uint32_t>(row));
        out->build_rows.push_back(matched.build_rows[p]);
      }
    } else {
      out->probe_rows.push_back(static_cast<uint32_t>(row));
      out->build_rows.push_back(kNoRow);
    }
  }
}

bool Charge(size_t bytes, std::string* error) { return ChargeQueryMemory(bytes, error); }

// The whole of CompleteJoin; the output's size is worked out and charged before it is made.
bool Complete(JoinKind kind, const MatchPairs& matched, size_t probe_row_count, size_t build_row_count,
              const std::vector<uint8_t>& probe_null, bool build_has_null_key, JoinOutput* out,
              std::string* error) {
  const ScopedMemoryActivity activity("completing a join's output");
  const size_t pairs = matched.size();
  // Build rows with a pair (kRight, kFull): a bitmap, charged while it lives.
  std::vector<uint64_t> build_matched;
  struct Release {
    size_t bytes = 0;
    ~Release() { ReleaseQueryMemory(bytes); }
  } release_bitmap;
  size_t build_unmatched = 0;
  if (kind == JoinKind::kRight || kind == JoinKind::kFull) {
    const size_t bytes = BitmaskWords(build_row_count) * sizeof(uint64_t);
    if (!Charge(bytes, error)) return false;
    release_bitmap.bytes = bytes;
    build_matched.assign(BitmaskWords(build_row_count), 0);
    for (uint32_t row : matched.build_rows) BitmaskSet(build_matched.data(), row);
    size_t with_pair = 0;
    for (uint64_t word : build_matched) with_pair += static_cast<size_t>(__builtin_popcountll(word));
    build_unmatched = build_row_count - with_pair;
  }
  const size_t distinct = (kind == JoinKind::kLeft || kind == JoinKind::kFull || kind == JoinKind::kSemi ||
                           kind == JoinKind::kAnti)
                              ? DistinctProbeRows(matched)
                              : 0;
  size_t rows = 0;        // entries of probe_rows (and build_rows, when it is filled)
  bool with_build = true;
  switch (kind) {
    case JoinKind::kInner: rows = pairs; break;
    case JoinKind::kLeft: rows = pairs + (probe_row_count - distinct); break;
    case JoinKind::kRight: rows = pairs + build_unmatched; break;
    case JoinKind::kFull: rows = pairs + (probe_row_count - distinct) + build_unmatched; break;
    case JoinKind::kSemi: rows = distinct; with_build = false; break;
    case JoinKind::kAnti: rows = probe_row_count - distinct; with_build = false; break;
    case JoinKind::kMark: rows = probe_row_count; with_build = false; break;
  }
  const size_t bytes = rows * sizeof(uint32_t) * (with_build ? 2 : 1) + (kind == JoinKind::kMark ? rows : 0);
  if (!Charge(bytes, error)) return false;  // the output's: kept (see hash_join.h)
  out->probe_rows.reserve(rows);
  if (with_build) out->build_rows.reserve(rows);
  switch (kind) {
    case JoinKind::kInner:
      out->probe_rows = matched.probe_rows;
      out->build_rows = matched.build_rows;
      break;
    case JoinKind::kLeft:
    case JoinKind::kFull:
      AppendLeft(matched, probe_row_count, out);
      break;
    case JoinKind::kRight:
      out->probe_rows = matched.probe_rows;
      out->build_rows = matched.build_rows;
      break;
    case JoinKind::kSemi:
    case JoinKind::kAnti: {
      size_t p = 0;
      for (size_t row = 0; row < probe_row_count; ++row) {
        const bool has_pair = p < pairs && matched.probe_rows[p] == row;
        while (p < pairs && matched.probe_rows[p] == row) ++p;
        if (has_pair == (kind == JoinKind::kSemi)) out->probe_rows.push_back(static_cast<uint32_t>(row));
      }
      break;
    }
    case JoinKind::kMark: {
      out->mark.assign(probe_row_count, kMarkFalse);
      // IN over an empty set is false whatever the probe value; otherwise a NULL on either
      // side makes a miss unknown.
      const bool build_empty = build_row_count == 0;
      for (size_t row = 0; row < probe_row_count; ++row) {
        out->probe_rows.push_back(static_cast<uint32_t>(row));
        const bool probe_null_key = row < probe_null.size() && probe_null[row] != 0;
        if (!build_empty && (probe_null_key || build_has_null_key)) out->mark[row] = kMarkNull;
      }
      for (uint32_t row : matched.probe_rows) out->mark[row] = kMarkTrue;
      break;
    }
  }
  if (kind == JoinKind::kRight || kind == JoinKind::kFull) {
    for (size_t row = 0; row < build_row_count; ++row) {
      if (!BitmaskGet(build_matched.data(), row)) {
        out->probe_rows.push_back(kNoRow);
        out->build_rows.push_back(static_cast<uint32_t>(row));
      }
    }
  }
  return true;
}

[[noreturn]] void Abort(const std::string& message) {
  if (QueryBudget* budget = CurrentQueryBudget()) budget->RecordAbort(message);
  throw QueryAbort(message);
}

}  // namespace

bool CompleteJoin(JoinKind kind, const MatchPairs& matched, size_t probe_row_count, size_t build_row_count,
                  const std::vector<uint8_t>& probe_row_has_null_key, bool build_has_null_key, JoinOutput* out,
                  std::string* error) {
  *out = JoinOutput();
  bool ok = false;
  try {
    ok = Complete(kind, matched, probe_row_count, build_row_count, probe_row_has_null_key, build_has_null_key, out,
                  error);
  } catch (const std::bad_alloc&) {
    *error = "out of memory completing a join's output";
  }
  if (!ok) *out = JoinOutput();
  return ok;
}

void CompleteJoin(JoinKind kind, const MatchPairs& matched, size_t probe_row_count, size_t build_row_count,
                  const std::vector<uint8_t>& probe_row_has_null_key, bool build_has_null_key, JoinOutput* out) {
  std::string error;
  if (!CompleteJoin(kind, matched, probe_row_count, build_row_count, probe_row_has_null_key, build_has_null_key,
                    out, &error)) {
    Abort(error);
  }
}

std::vector<uint8_t> RowsWithNullKey(const std::vector<const Column*>& keys, size_t rows) {
  ChargeQueryMemoryOrThrow(rows);  // the output's: kept (see hash_join.h)
  std::vector<uint8_t> has_null(rows, 0);
  for (const Column* key : keys) {
    const uint64_t* validity = key->validity();
    if (validity == nullptr) continue;
    for (size_t row = 0; row < rows; ++row) has_null[row] |= !BitmaskGet(validity, row);
  }
  return has_null;
}

bool AnyRowWithNullKey(const std::vector<const Column*>& keys, size_t rows) {
  for (const Column* key : keys) {
    const uint64_t* validity = key->validity();
    if (validity == nullptr || rows == 0) continue;
    const size_t words = BitmaskWords(rows);
    for (size_t w = 0; w < words; ++w) {
      const uint64_t live = w + 1 == words ? BitmaskTailMask(rows) : ~uint64_t{0};
      if ((validity[w] & live) != live) return true;
    }
  }
  return false;
}

}  // namespace exec
}  // namespace laneql
