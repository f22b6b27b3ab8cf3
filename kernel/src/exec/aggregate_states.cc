// AggregateStates: per-group update loops, the ungrouped SIMD-kernel path, COUNT(DISTINCT),
// and the final values in DuckDB's result types.
#include "src/exec/aggregate_states.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>

#include "laneql/aggregate.h"
#include "laneql/hash.h"
#include "laneql/int128.h"
#include "laneql/predicate.h"
#include "src/exec/expr_eval.h"
#include "src/exec/grouping.h"
#include "src/exec/morsel.h"
#include "src/exec/parallel_project.h"
#include "src/exec/row_offsets.h"
#include "src/common/decimal.h"
#include "src/common/query_budget.h"

namespace laneql {
namespace exec {

using plan::AggKind;

namespace {

// From this many groups on, Finish copies counts out on the query's threads.
constexpr size_t kParallelFinishMin = size_t{1} << 20;

// The 64-bit word COUNT(DISTINCT) compares: integers widened by value, floats canonical.
template <class T>
uint64_t DistinctWord(T v) {
  uint64_t word = 0;
  if constexpr (std::is_same_v<T, double>) {
    double d = v == 0 ? 0.0 : v;
    if (std::isnan(d)) d = std::numeric_limits<double>::quiet_NaN();
    std::memcpy(&word, &d, 8);
  } else if constexpr (std::is_same_v<T, float>) {
    double d = v == 0 ? 0.0 : static_cast<double>(v);
    if (std::isnan(d)) d = std::numeric_limits<double>::quiet_NaN();
    std::memcpy(&word, &d, 8);
  } else if constexpr (std::is_signed_v<T>) {
    word = static_cast<uint64_t>(static_cast<int64_t>(v));
  } else {
    word = static_cast<uint64_t>(v);
  }
  return word;
}

}  // namespace

void DistinctWords(const Vec& vec, size_t count, uint64_t* out, size_t stride) {
  VisitFixed(vec.type, [&](auto tag) {
    using T = decltype(tag);
    const T* values = reinterpret_cast<const T*>(vec.values);
    if (vec.constant) {
      const uint64_t word = DistinctWord(values[0]);
      for (size_t i = 0; i < count; ++i) out[i * stride] = word;
      return;
    }
    for (size_t i = 0; i < count; ++i) out[i * stride] = DistinctWord(values[i]);
  });
}

template <class T>
void AggregateStates::KernelUpdate(State* state, const T* values, size_t n, const uint64_t* select,
                                   const uint64_t* validity) {
  State& s = *state;
  if (s.kind == AggKind::kSum || s.kind == AggKind::kAvg) {
    const auto r = AggregateSum(values, n, select, validity);
    if constexpr (std::is_floating_point_v<T>) s.reals[0] += r.value;
    else s.ints[0] += r.value;
    s.counts[0] += static_cast<int64_t>(r.count);
    return;
  }
  const bool is_min = s.kind == AggKind::kMin;
  const auto r = is_min ? AggregateMin(values, n, select, validity) : AggregateMax(values, n, select, validity);
  if (!r.any()) return;
  if constexpr (std::is_floating_point_v<T>) {
    const double d = static_cast<double>(r.value);
    if (s.counts[0] == 0 || (is_min ? AggLess(d, s.reals[0]) : AggLess(s.reals[0], d))) s.reals[0] = d;
  } else {
    const Int128 x = static_cast<Int128>(r.value);
    if (s.counts[0] == 0 || (is_min ? x < s.ints[0] : x > s.ints[0])) s.ints[0] = x;
  }
  s.counts[0] += static_cast<int64_t>(r.count);
}

AggregateStates::AggregateStates(const std::vector<plan::Aggregate>& aggregates, bool ungrouped)
    : ungrouped_(ungrouped) {
  for (const plan::Aggregate& aggregate : aggregates) {
    State s;
    s.kind = aggregate.kind;
    s.result_type = aggregate.type;
    if (aggregate.arg) s.arg_type = aggregate.arg->type;
    const bool narrow_integer = !IsFloat(s.arg_type) && !IsString(s.arg_type) &&
                                !IsTemporal(s.arg_type) && s.arg_type != TypeId::kInt128 &&
                                TypeByteWidth(s.arg_type) <= 2;
    s.narrow_sum = !ungrouped && aggregate.arg && narrow_integer &&
                   (s.kind == AggKind::kSum || s.kind == AggKind::kAvg);
    if (s.kind == AggKind::kFunction) s.function = MakeAggregateFunctionState(aggregate);
    if (s.kind == AggKind::kCountDistinct) {
      const bool fixed = !IsString(s.arg_type) && TypeByteWidth(s.arg_type) <= 8;
      if (ungrouped && fixed) s.distinct_fixed = std::make_unique<FixedKeyHashTable>();
      else if (fixed) s.distinct_wide = std::make_unique<WideKeyHashTable>(2);
      else s.distinct_strings = std::make_unique<StringKeyHashTable>();
      s.bare_values = ungrouped && s.distinct_strings != nullptr;
    }
    state_.push_back(std::move(s));
  }
}

namespace {

size_t StateBytes(const StateArray<int64_t>& counts, const StateArray<Int128>& ints,
                  const StateArray<int64_t>& sums, const StateArray<double>& reals,
                  const std::vector<std::string>& strings) {
  return counts.capacity() * sizeof(int64_t) + ints.capacity() * sizeof(Int128) +
         sums.capacity() * sizeof(int64_t) +
         reals.capacity() * sizeof(double) + strings.capacity() * sizeof(std::string);
}

}  // namespace

bool AggregateStates::Resize(size_t groups, std::string* error) { return Grow(groups, true, error); }

bool AggregateStates::ResizeForCopy(size_t groups, std::string* error) {
  return Grow(groups, false, error);
}

bool AggregateStates::Reserve(size_t groups, std::string* error) {
  groups = DoublingCapacity(groups);
  for (State& s : state_) {
    const size_t bytes_before = StateBytes(s.counts, s.ints, s.sums, s.reals, s.strings);
    s.counts.reserve(groups);
    if (KeepsValues(s.kind)) {
      if (IsString(s.arg_type)) s.strings.reserve(groups);
      else if (IsFloat(s.arg_type)) s.reals.reserve(groups);
      else if (s.narrow_sum) s.sums.reserve(groups);
      else s.ints.reserve(groups);
    }
    // Charged as Grow charges: capacity is what Grow measures, so it will not charge it again.
    if (!ChargeGrowth(s, bytes_before, error)) return false;
  }
  return true;
}

bool AggregateStates::ChargeGrowth(const State& s, size_t bytes_before, std::string* error) {
  const size_t bytes_after = StateBytes(s.counts, s.ints, s.sums, s.reals, s.strings);
  if (bytes_after <= bytes_before) return true;
  const ScopedMemoryActivity activity("growing the aggregate states");
  return ChargeQueryMemory(bytes_after - bytes_before, error);
}

bool AggregateStates::Grow(size_t groups, bool zero, std::string* error) {
  for (State& s : state_) {
    if (s.function && !s.function->Resize(groups, error)) return false;
    if (s.counts.size() >= groups) continue;
    const size_t bytes_before = StateBytes(s.counts, s.ints, s.sums, s.reals, s.strings);
    // resize(n) default-initialises through LargeBlockAllocator: the numbers are left unwritten,
    // and their pages untouched until CopyGroups writes them.
    if (zero) s.counts.resize(groups, 0);
    else s.counts.resize(groups);
    const bool floats = IsFloat(s.arg_type);
    if (KeepsValues(s.kind)) {
      if (IsString(s.arg_type)) s.strings.resize(groups);
      else if (floats && zero) s.reals.resize(groups, 0.0);
      else if (floats) s.reals.resize(groups);
      else if (s.narrow_sum && zero) s.sums.resize(groups, 0);
      else if (s.narrow_sum) s.sums.resize(groups);
      else if (zero) s.ints.resize(groups, 0);
      else s.ints.resize(groups);
    }
    // The query's memory limit (query_budget.h): one charge when the vectors grow (they double),
    // kept until the query ends.
    if (!ChargeGrowth(s, bytes_before, error)) return false;
  }
  return true;
}

bool AggregateStates::Update(size_t a, const Vec* arg, const uint32_t* group_ids, size_t count,
                             std::string* error, const Vec* arg2, const std::vector<Vec>* keys,
                             const RowSet* rows) {
  State& s = state_[a];
  switch (s.kind) {
    case AggKind::kFunction: {
      s.function->SetRows(rows);
      const bool ok = keys != nullptr ? s.function->UpdateWithKeys(*arg, arg2, *keys, group_ids, count, error)
                                      : s.function->Update(*arg, arg2, group_ids, count, error);
      s.function->SetRows(nullptr);
      return ok;
    }
    case AggKind::kCountStar:
      for (size_t i = 0; i < count; ++i) {
        if (group_ids[i] != kNoGroup) ++s.counts[group_ids[i]];
      }
      return true;
    case AggKind::kCount:
      for (size_t i = 0; i < count; ++i) {
        if (group_ids[i] != kNoGroup && !arg->IsNull(i)) ++s.counts[group_ids[i]];
      }
      return true;
    case AggKind::kCountDistinct: return UpdateDistinct(s, *arg, group_ids, count, error);
    default: break;
  }
  const bool is_min = s.kind == AggKind::kMin;
  const bool is_sum = s.kind == AggKind::kSum || s.kind == AggKind::kAvg;
  if (IsString(arg->type)) {
    for (size_t i = 0; i < count; ++i) {
      const uint32_t g = group_ids[i];
      if (g == kNoGroup || arg->IsNull(i)) continue;
      const std::string_view v = arg->Str(i);
      if (s.counts[g] == 0 || (is_min ? v < s.strings[g] : v > s.strings[g])) s.strings[g].assign(v);
      ++s.counts[g];
    }
    return true;
  }
  if (ungrouped_ && is_sum && IsFloat(arg->type) && !arg->constant && count != 0) {
    // Ungrouped (every row in group 0): the same additions in row order, into a register
    // instead of through s.reals[0] and s.counts[0] in memory a row (that loop, below, was most
    // of sum(floor(d))). A NULL row adds +0.0, which leaves any sum but -0.0 as it is, and a sum
    // from +0.0 is never -0.0 (an exact zero sum of round-to-nearest is +0.0); a -0.0 start
    // takes the loop below.
    double sum = s.reals[0];
    if (sum != 0.0 || !std::signbit(sum)) {
      const uint64_t* validity = arg->validity;
      if (arg->type == TypeId::kFloat64) {
        const double* x = arg->Data<double>();
        if (validity == nullptr) {
          for (size_t i = 0; i < count; ++i) sum += x[i];
        } else {
          for (size_t i = 0; i < count; ++i) sum += BitmaskGet(validity, i) ? x[i] : 0.0;
        }
      } else {
        const float* x = arg->Data<float>();
        for (size_t i = 0; i < count; ++i) {
          sum += validity == nullptr || BitmaskGet(validity, i) ? static_cast<double>(x[i]) : 0.0;
        }
      }
      s.reals[0] = sum;
      s.counts[0] += static_cast<int64_t>(validity == nullptr ? count : CountBits(validity, count));
      return true;
    }
  }
  bool overflow = false;
  VisitFixed(arg->type, [&](auto tag) {
    using T = decltype(tag);
    const bool nullable = arg->validity != nullptr;
    for (size_t i = 0; i < count; ++i) {
      const uint32_t g = group_ids[i];
      if (g == kNoGroup || (nullable && arg->IsNull(i))) continue;
      const T v = arg->Get<T>(i);
      if constexpr (std::is_floating_point_v<T>) {
        const double d = static_cast<double>(v);
        if (is_sum) s.reals[g] += d;
        else if (s.counts[g] == 0 || (is_min ? AggLess(d, s.reals[g]) : AggLess(s.reals[g], d))) s.reals[g] = d;
      } else if (s.narrow_sum) {
        s.sums[g] += static_cast<int64_t>(v);
      } else {
        const Int128 x = static_cast<Int128>(v);
        if (is_sum) {
          // 8-byte values cannot leave 128 bits in 2^32 rows; 16-byte ones can.
          if constexpr (std::is_same_v<T, Int128>) overflow |= __builtin_add_overflow(s.ints[g], x, &s.ints[g]);
          else s.ints[g] += x;
        } else if (s.counts[g] == 0 || (is_min ? x < s.ints[g] : x > s.ints[g])) {
          s.ints[g] = x;
        }
      }
      ++s.counts[g];
    }
  });
  if (overflow) s.overflowed.Set();
  return true;
}

void AggregateStates::UpdateFloatSums(const std::vector<size_t>& aggs,
                                      const std::vector<const double*>& values,
                                      const std::vector<size_t>& count_stars,
                                      const uint32_t* group_ids, size_t count, size_t groups) {
  // Slot `groups` takes the rows of no group (kNoGroup), so the loop has no branch.
  const size_t slots = groups + 1, k_count = aggs.size();
  fused_sums_.assign(k_count * slots, 0.0);
  fused_rows_.assign(slots, 0);
  for (size_t k = 0; k < k_count; ++k) {
    const StateArray<double>& reals = state_[aggs[k]].reals;
    std::copy(reals.begin(), reals.begin() + static_cast<std::ptrdiff_t>(groups),
              fused_sums_.begin() + static_cast<std::ptrdiff_t>(k * slots));
  }
  double* sums = fused_sums_.data();
  int64_t* rows = fused_rows_.data();
  for (size_t i = 0; i < count; ++i) {
    const size_t g = std::min<size_t>(group_ids[i], groups);
    for (size_t k = 0; k < k_count; ++k) sums[k * slots + g] += values[k][i];
    ++rows[g];
  }
  for (size_t k = 0; k < k_count; ++k) {
    State& s = state_[aggs[k]];
    for (size_t g = 0; g < groups; ++g) {
      s.reals[g] = sums[k * slots + g];
      s.counts[g] += rows[g];
    }
  }
  for (size_t a : count_stars) {
    for (size_t g = 0; g < groups; ++g) state_[a].counts[g] += rows[g];
  }
}

bool AggregateStates::UpdateKernel(size_t a, TypeId type, const void* data, size_t n,
                                   const uint64_t* select, const uint64_t* validity) {
  State& s = state_[a];
  if (s.kind == AggKind::kCount) {
    uint64_t rows = n;
    if (select != nullptr && validity != nullptr) rows = CountBitsAnd(select, validity, n);
    else if (select != nullptr) rows = CountBits(select, n);
    else if (validity != nullptr) rows = CountBits(validity, n);
    s.counts[0] += rows;
    return true;
  }
  if (s.kind == AggKind::kCountStar || s.kind == AggKind::kCountDistinct || s.kind == AggKind::kFunction) {
    return false;
  }
  if (type == TypeId::kInt128 || type == TypeId::kBool || IsString(type)) return false;
  const bool temporal = IsTemporal(type);
  if (temporal && (s.kind == AggKind::kSum || s.kind == AggKind::kAvg)) return false;
  bool handled = true;
  VisitFixed(type, [&](auto tag) {
    using T = decltype(tag);
    // The kernels exist for 1..8-byte types (int128 returned above; the constexpr keeps its
    // instantiation out of unoptimised builds too).
    if constexpr (std::is_same_v<T, Int128>) {
      handled = false;
    } else {
      KernelUpdate(&s, static_cast<const T*>(data), n, select, validity);
    }
  });
  return handled;
}

void AggregateStates::SelectDistinctRows(const Vec& arg, const uint32_t* group_ids,
                                         size_t count) {
  selection_.assign(BitmaskWords(count) + 1, 0);
  if (arg.constant && arg.IsNull(0)) return;
  const uint64_t* validity = arg.constant ? nullptr : arg.validity;
  // Each word built in a register, as HashOwnership::Mark does.
  for (size_t base = 0; base < count; base += 64) {
    const size_t rows = std::min<size_t>(64, count - base);
    uint64_t word = 0;
    for (size_t j = 0; j < rows; ++j) {
      word |= static_cast<uint64_t>(group_ids[base + j] != kNoGroup) << j;
    }
    selection_[base / 64] = validity != nullptr ? word & validity[base / 64] : word;
  }
}

void AggregateStates::PartitionDistinct(size_t a, bool by_group) {
  State& s = state_[a];
  s.distinct_fixed.reset();
  s.distinct_wide.reset();
  s.distinct_partitions = std::make_unique<DistinctPartitions>(by_group && !ungrouped_);
  s.partitioned = true;
}

bool AggregateStates::FinishDistinctPartitions(std::string* error) {
  for (State& s : state_) {
    if (s.distinct_partitions != nullptr && !s.distinct_partitions->Finish(error)) return false;
  }
  return true;
}

bool AggregateStates::UpdateDistinct(State& s, const Vec& arg, const uint32_t* group_ids,
                                     size_t count, std::string* error) {
  if (count == 0) return true;
  const ScopedMemoryActivity activity("growing a COUNT(DISTINCT) set");
  if (pair_ids_.size() < count) pair_ids_.resize(count);
  if (hashes_.size() < count) hashes_.resize(count);
  SelectDistinctRows(arg, group_ids, count);
  uint64_t* selection = selection_.data();
  size_t before = 0;
  if (s.partitioned) {
    // An 8-byte integer's values are its words as they are (the copy was a tenth of COUNT(
    // DISTINCT UserID)'s time).
    const bool as_is = !arg.constant && (arg.type == TypeId::kInt64 || arg.type == TypeId::kUInt64);
    const uint64_t* words = reinterpret_cast<const uint64_t*>(arg.values);
    if (!as_is) {
      if (words_.size() < count) words_.resize(count);
      DistinctWords(arg, count, words_.data(), 1);
      words = words_.data();
    }
    // By group, the values are hashed only when counted.
    const bool by_group = s.distinct_partitions->by_group();
    if (!by_group) HashKeys(words, count, nullptr, hashes_.data());
    return s.distinct_partitions->Append(words, ungrouped_ ? nullptr : group_ids,
                                         by_group ? nullptr : hashes_.data(), count, selection, error);
  }
  if (s.distinct_fixed) {
    if (words_.size() < count) words_.resize(count);
    DistinctWords(arg, count, words_.data(), 1);
    HashKeys(words_.data(), count, nullptr, hashes_.data());
    if (ownership_.shared()) ownership_.Mark(hashes_.data(), count, selection, /*and_into=*/true);
    if (!s.distinct_fixed->FindOrInsert(words_.data(), hashes_.data(), count, selection,
                                        pair_ids_.data(), error)) {
      return false;
    }
    s.counts[0] = static_cast<int64_t>(s.distinct_fixed->size());
    return true;
  }
  if (s.distinct_wide) {
    before = s.distinct_wide->size();
    if (words_.size() < 2 * count) words_.resize(2 * count);
    DistinctWords(arg, count, words_.data() + 1, 2);
    for (size_t i = 0; i < count; ++i) words_[2 * i] = group_ids[i] == kNoGroup ? 0 : group_ids[i];
    // The SIMD kernel, the same hashes as a scalar call per pair (reference::Mix out of line:
    // 3 % of GROUP BY SearchPhrase, COUNT(DISTINCT UserID)'s instructions on 16 threads).
    HashWideRows(words_.data(), 2, count, hashes_.data());
    if (!s.distinct_wide->FindOrInsert(words_.data(), hashes_.data(), count, selection,
                                       pair_ids_.data(), error)) {
      return false;
    }
  } else {
    before = s.distinct_strings->size();
    const int32_t* offsets = nullptr;
    const uint8_t* bytes = nullptr;
    if (s.bare_values && !arg.constant && IsString(arg.type)) {
      // The rows as they are: their offsets need not start at 0, and NULLs are left out by the
      // selection (SELECT COUNT(DISTINCT SearchPhrase): no copy of 10 M strings).
      offsets = arg.offsets;
      bytes = arg.values;
    } else if (!SerializeDistinctRows(s.bare_values, arg, group_ids, count, error)) {
      return false;
    } else {
      offsets = ser_offsets_.As<int32_t>();
      bytes = ser_data_.data();
    }
    HashStrings(offsets, bytes, count, nullptr, hashes_.data());
    if (ownership_.shared()) ownership_.Mark(hashes_.data(), count, selection, /*and_into=*/true);
    if (!s.distinct_strings->FindOrInsert(offsets, bytes, nullptr, hashes_.data(), count,
                                          selection, pair_ids_.data(), error)) {
      return false;
    }
  }
  CountNewPairs(pair_ids_.data(), group_ids, count, before, &s.counts);
  return true;
}

bool AggregateStates::SerializeDistinctRows(bool bare_values, const Vec& arg,
                                            const uint32_t* group_ids, size_t count,
                                            std::string* error) {
  // Sizes first, then one resize and plain copies (an Append per piece cost a fifth of the
  // query's time on short strings).
  const size_t prefix = bare_values ? 0 : 4;
  const bool strings = IsString(arg.type);
  if (!ser_offsets_.Resize((count + 1) * sizeof(int32_t), error)) return false;
  int32_t* offsets = ser_offsets_.As<int32_t>();
  size_t total = 0;
  const auto row_bytes = [&](size_t i) {
    return prefix + (arg.IsNull(i) ? 0 : strings ? arg.Str(i).size() : 16);
  };
  if (!RunningOffsets(count, row_bytes, offsets, &total,
                      "COUNT(DISTINCT): more than 2 GiB of values in one batch of rows", error)) {
    return false;
  }
  if (!ser_data_.ResizeForOverwrite(total, error)) return false;
  uint8_t* out = ser_data_.data();
  for (size_t i = 0; i < count; ++i) {
    uint8_t* row = out + offsets[i];
    if (prefix != 0) {
      const uint32_t g = group_ids[i] == kNoGroup ? 0 : group_ids[i];
      std::memcpy(row, &g, 4);
    }
    if (arg.IsNull(i)) continue;
    if (strings) {
      const std::string_view v = arg.Str(i);
      if (!v.empty()) std::memcpy(row + prefix, v.data(), v.size());
    } else {
      std::memcpy(row + prefix, arg.values + arg.Row(i) * 16, 16);
    }
  }
  return true;
}

bool AggregateStates::IsFloatSum(size_t a) const {
  const State& s = state_[a];
  return (s.kind == AggKind::kSum || s.kind == AggKind::kAvg) && IsFloat(s.arg_type);
}

double AggregateStates::TakeFloatSum(size_t a) {
  const double sum = state_[a].reals[0];
  state_[a].reals[0] = 0.0;
  return sum;
}


bool AggregateStates::Finish(size_t a, size_t groups, Column* out, std::string* error,
                             const ExecContext* ctx) const {
  return Finish(a, nullptr, groups, out, error, ctx);
}

bool AggregateStates::Finish(size_t a, const std::vector<uint32_t>* ids, size_t groups, Column* out,
                             std::string* error, const ExecContext* ctx) const {
  return FinishParts({this}, {0, groups}, a, ids, out, error, ctx);
}

bool AggregateStates::CountsAreResults(const State& s) {
  return (s.kind == AggKind::kCountStar || s.kind == AggKind::kCount ||
          s.kind == AggKind::kCountDistinct) &&
         s.result_type == TypeId::kInt64;
}

bool StateParts::PartCounts(size_t a, size_t p, const int64_t** data, size_t* stored) const {
  const AggregateStates::State& s = parts_[p]->state_[a];
  if (!AggregateStates::CountsAreResults(s)) return false;
  *stored = std::min(s.counts.size(), offsets_[p + 1] - offsets_[p]);
  *data = s.counts.data();
  return true;
}

std::pair<const AggregateStates::State*, size_t> AggregateStates::Locate(
    const std::vector<const AggregateStates*>& parts, const std::vector<size_t>& offsets, size_t a, size_t g) {
  if (parts.size() == 1) return {&parts[0]->state_[a], g};
  const size_t p = static_cast<size_t>(std::upper_bound(offsets.begin(), offsets.end(), g) - offsets.begin()) - 1;
  return {&parts[p]->state_[a], g - offsets[p]};
}

bool AggregateStates::FinishParts(const std::vector<const AggregateStates*>& parts,
                                  const std::vector<size_t>& offsets, size_t a,
                                  const std::vector<uint32_t>* ids, Column* out, std::string* error,
                                  const ExecContext* ctx) {
  const size_t groups = offsets.back();
  const size_t rows = ids != nullptr ? ids->size() : groups;
  const auto locate = [&](size_t g) { return Locate(parts, offsets, a, g); };
  const State& first = parts[0]->state_[a];
  if (CountsAreResults(first)) {
    // The counts as they are, in one pass: appending row by row through the switch below cost
    // about 120 instructions per group, on one thread, for every group of an ORDER BY count(*).
    AlignedBuffer values;
    if (!values.ResizeForOverwrite(rows * sizeof(int64_t), error)) return false;
    int64_t* out_counts = values.As<int64_t>();
    if (ids == nullptr) {
      // Every group's count where ORDER BY or HAVING reads them: 64-80 MB for GROUP BY UserID,
      // minute, SearchPhrase or WatchID, ClientIP, a serial 7.3 ms between the merge and the
      // parallel sort. The threads copy slices of it: 4.6-6.8 ms on 2 (a copy at the memory's
      // pace), and a step that no longer stays whole as threads are added. A slice may cross
      // parts; groups past a part's arrays count 0.
      const int threads =
          ctx != nullptr && rows >= kParallelFinishMin ? ctx->ThreadsAvailable() : 1;
      const auto copy_slice = [&](int t) {
        const size_t begin = rows * static_cast<size_t>(t) / static_cast<size_t>(threads);
        const size_t end = rows * static_cast<size_t>(t + 1) / static_cast<size_t>(threads);
        for (size_t p = 0; p < parts.size(); ++p) {
          const size_t from = std::max(begin, offsets[p]), to = std::min(end, offsets[p + 1]);
          if (from >= to) continue;
          const StateArray<int64_t>& counts = parts[p]->state_[a].counts;
          const size_t stored_end = offsets[p] + std::min(counts.size(), offsets[p + 1] - offsets[p]);
          const size_t copy_end = std::min(to, std::max(from, stored_end));
          if (copy_end > from) {
            std::memcpy(out_counts + from, counts.data() + (from - offsets[p]),
                        (copy_end - from) * sizeof(int64_t));
          }
          std::fill(out_counts + copy_end, out_counts + to, int64_t{0});
        }
      };
      if (threads > 1) RunThreads(*ctx, threads, copy_slice);
      else copy_slice(0);
    } else {
      // The chosen groups' counts (every group's, in first-row order, for an unordered GROUP BY
      // of many groups), a search among the parts per group: in slices on the threads.
      const int threads =
          ctx != nullptr && rows >= kParallelFinishMin ? ctx->ThreadsAvailable() : 1;
      const auto locate_slice = [&](int t) {
        const size_t begin = rows * static_cast<size_t>(t) / static_cast<size_t>(threads);
        const size_t end = rows * static_cast<size_t>(t + 1) / static_cast<size_t>(threads);
        for (size_t i = begin; i < end; ++i) {
          const auto [s, g] = locate((*ids)[i]);
          out_counts[i] = g < s->counts.size() ? s->counts[g] : 0;
        }
      };
      if (threads > 1) RunThreads(*ctx, threads, locate_slice);
      else locate_slice(0);
    }
    return Column::FromBuffers(first.result_type, rows, std::move(values), AlignedBuffer(), AlignedBuffer(), out,
                               error);
  }
  // Past a million groups (TPC-H Q18's GROUP BY l_orderkey HAVING sum(...) at SF 10: 15 M) the
  // groups are finished in slices on the query's threads and the slices' columns joined: on one
  // thread it was 22 ms of a 79 ms query at SF 1 on 2 threads. A library aggregate's Append may
  // change its state (a median sorts its values), so those stay on one thread.
  const int threads = ctx != nullptr && rows >= kParallelFinishMin && first.kind != AggKind::kFunction
                          ? TaskThreads(ctx->ThreadsAvailable(), rows)
                          : 1;
  if (threads > 1) {
    const size_t slice = std::max<size_t>((rows / (static_cast<size_t>(threads) * 4) + 63) / 64 * 64, 4096);
    std::vector<Column> pieces((rows + slice - 1) / slice);
    auto finish_slice = [&](size_t k, int, std::string* task_error) {
      return FinishRows(parts, offsets, a, ids, k * slice, std::min(rows, (k + 1) * slice), &pieces[k], task_error);
    };
    return RunTasks(*ctx, threads, pieces.size(), finish_slice, error) &&
           ConcatColumns(pieces, *ctx, threads, out, error);
  }
  return FinishRows(parts, offsets, a, ids, 0, rows, out, error);
}

bool AggregateStates::FinishRows(const std::vector<const AggregateStates*>& parts, const std::vector<size_t>& offsets,
                                 size_t a, const std::vector<uint32_t>* ids, size_t begin, size_t end, Column* out,
                                 std::string* error) {
  const auto locate = [&](size_t g) { return Locate(parts, offsets, a, g); };
  for (const AggregateStates* part : parts) {
    if (part->state_[a].overflowed.IsSet()) {
      *error = "Out of Range Error: Overflow in HUGEINT addition (a SUM or AVG past 128 bits)";
      return false;
    }
  }
  Column column(parts[0]->state_[a].result_type);
  if (!column.Reserve(end - begin, 0, error)) return false;
  for (size_t i = begin; i < end; ++i) {
    // Not a structured binding: clang (Emscripten's) does not let the lambda below capture one.
    const std::pair<const State*, size_t> located = locate(ids != nullptr ? (*ids)[i] : i);
    const State& s = *located.first;
    const size_t g = located.second;
    const int64_t n = g < s.counts.size() ? s.counts[g] : 0;
    bool ok = true;
    switch (s.kind) {
      case AggKind::kFunction: ok = s.function->Append(g, &column, error); break;
      case AggKind::kCountStar:
      case AggKind::kCount:
      case AggKind::kCountDistinct: ok = column.Append<int64_t>(n, error); break;
      case AggKind::kSum:
        if (n == 0) ok = column.AppendNull(error);
        else if (IsFloat(s.arg_type)) ok = column.Append<double>(s.reals[g], error);
        else if (IsDecimal(s.arg_type) && (s.ints[g] >= decimal::Pow10(kMaxDecimalPrecision) ||
                                           s.ints[g] <= -decimal::Pow10(kMaxDecimalPrecision))) {
          // Within 128 bits but past 38 digits, as DuckDB checks the finished sum.
          *error = "Out of Range Error: Overflow in SUM of DECIMAL: the result does not fit in DECIMAL(38)";
          ok = false;
        } else {
          ok = column.Append<Int128>(s.narrow_sum ? Int128{s.sums[g]} : s.ints[g], error);
        }
        break;
      case AggKind::kAvg:
        if (n == 0) ok = column.AppendNull(error);
        else if (IsFloat(s.arg_type)) ok = column.Append<double>(s.reals[g] / static_cast<double>(n), error);
        else if (IsDecimal(s.arg_type)) ok = column.Append<double>(decimal::Average(s.ints[g], n, DecimalScale(s.arg_type)), error);
        else ok = column.Append<double>(Int128ToDouble(s.narrow_sum ? Int128{s.sums[g]} : s.ints[g]) / static_cast<double>(n), error);
        break;
      case AggKind::kMin:
      case AggKind::kMax:
        if (n == 0) {
          ok = column.AppendNull(error);
        } else if (IsString(s.result_type)) {
          ok = column.AppendString(s.strings[g], error);
        } else {
          VisitFixed(s.result_type, [&](auto tag) {
            using T = decltype(tag);
            if constexpr (std::is_floating_point_v<T>) ok = column.Append<T>(static_cast<T>(s.reals[g]), error);
            else ok = column.Append<T>(static_cast<T>(s.ints[g]), error);
          });
        }
        break;
    }
    if (!ok) return false;
  }
  *out = std::move(column);
  return true;
}

}  // namespace exec
}  // namespace laneql
