// hash(x, ...): one UBIGINT per row from the engine's value hashes, combined argument by
// argument (the words COUNT(DISTINCT) compares: -0 as 0, one NaN; strings by their bytes; NULL
// as a fixed word). Equal values hash equally on every target and in wasm; the numbers are not
// DuckDB's, whose hash function is its own.
#include <vector>

#include "laneql/hash.h"
#include "laneql/int128.h"
#include "src/exec/aggregate_states.h"
#include "src/exec/expr_eval.h"
#include "src/exec/functions_common.h"

namespace laneql {
namespace exec {

namespace {
constexpr uint64_t kNullWord = 0x9E3779B97F4A7C15ULL;
}  // namespace

bool EvalHashFunction(const plan::BoundExpr&, std::vector<Vec>& args, size_t count, Vec* out, std::string* error) {
  uint64_t* dst = out->InitFixed<uint64_t>(TypeId::kUInt64, count, AllConstant(args), error);
  if (dst == nullptr) return false;
  const size_t rows = out->stored();
  std::vector<uint64_t> words(rows);
  for (size_t k = 0; k < args.size(); ++k) {
    const Vec& a = args[k];
    if (IsString(a.type)) {
      for (size_t i = 0; i < rows; ++i) {
        const std::string_view v = a.IsNull(i) ? std::string_view() : a.Str(i);
        words[i] = a.IsNull(i) ? kNullWord : reference::StringWord(reinterpret_cast<const uint8_t*>(v.data()), v.size());
      }
    } else if (TypeByteWidth(a.type) == 16) {  // int128, interval
      for (size_t i = 0; i < rows; ++i) {
        const Int128 v = a.Get<Int128>(i);
        words[i] = a.IsNull(i) ? kNullWord : reference::CombineWord(reference::Mix(Int128Low(v)), static_cast<uint64_t>(Int128High(v)));
      }
    } else {
      DistinctWords(a, rows, words.data(), 1);
      for (size_t i = 0; i < rows; ++i) {
        if (a.IsNull(i)) words[i] = kNullWord;
      }
    }
    for (size_t i = 0; i < rows; ++i) dst[i] = k == 0 ? reference::Mix(words[i]) : reference::CombineWord(dst[i], words[i]);
  }
  return true;
}

}  // namespace exec
}  // namespace laneql
