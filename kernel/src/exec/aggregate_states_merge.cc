// AggregateStates merges: another thread's states folded into these, whole (Merge) or one
// partition of groups at a time (MergeGroups, MergeDistinctPartition) for the two-level merge.
#include <algorithm>
#include <cstring>

#include "laneql/aggregate.h"
#include "laneql/bitmask.h"
#include "laneql/hash.h"
#include "laneql/predicate.h"
#include "src/exec/aggregate_states.h"

namespace laneql {
namespace exec {

using plan::AggKind;

namespace {
constexpr size_t kPairChunk = 4096;

// The lookups' bitmask of items not found yet: all n set at first (no bit past n), then the
// items an earlier set holds (a group id in ids) cleared after each lookup.
std::vector<uint64_t> AllItems(size_t n) {
  std::vector<uint64_t> left(BitmaskWords(n), ~uint64_t{0});
  if (n % 64 != 0) left.back() = (uint64_t{1} << (n % 64)) - 1;
  return left;
}
void DropFound(const std::vector<uint32_t>& ids, std::vector<uint64_t>* left) {
  for (size_t i = 0; i < ids.size(); ++i) {
    if (ids[i] != kNoGroup) (*left)[i / 64] &= ~(uint64_t{1} << (i % 64));
  }
}
}  // namespace

// Folds o's group g into s's group t.
void AggregateStates::MergeOne(State& s, const State& o, size_t g, size_t t) {
  if (s.function) {
    if (g < o.function->groups()) s.function->Merge(*o.function, g, t);
    return;
  }
  const int64_t n = o.counts[g];
  if (n == 0) return;
  const bool is_min = s.kind == AggKind::kMin;
  const bool is_sum = s.kind == AggKind::kSum || s.kind == AggKind::kAvg;
  if (s.kind == AggKind::kCountStar || s.kind == AggKind::kCount) {
    // counts only
  } else if (IsString(s.arg_type)) {
    if (s.counts[t] == 0 || (is_min ? o.strings[g] < s.strings[t] : o.strings[g] > s.strings[t])) {
      s.strings[t] = o.strings[g];
    }
  } else if (IsFloat(s.arg_type)) {
    if (is_sum) s.reals[t] += o.reals[g];
    else if (s.counts[t] == 0 || (is_min ? AggLess(o.reals[g], s.reals[t]) : AggLess(s.reals[t], o.reals[g]))) s.reals[t] = o.reals[g];
  } else if (s.narrow_sum) {
    s.sums[t] += o.sums[g];
  } else {
    if (is_sum) {
      if (__builtin_add_overflow(s.ints[t], o.ints[g], &s.ints[t]) || o.overflowed.IsSet()) s.overflowed.Set();
    } else if (s.counts[t] == 0 || (is_min ? o.ints[g] < s.ints[t] : o.ints[g] > s.ints[t])) s.ints[t] = o.ints[g];
  }
  s.counts[t] += n;
}

void AggregateStates::CountNewPairs(const uint32_t* ids, const uint32_t* groups, size_t n,
                                    size_t before, StateArray<int64_t>* counts) {
  uint32_t next = static_cast<uint32_t>(before);
  for (size_t i = 0; i < n; ++i) {
    if (ids[i] == next) {
      ++(*counts)[groups[i]];
      ++next;
    }
  }
}

bool AggregateStates::InsertPairs(State& s, WideKeyHashTable* wide, StringKeyHashTable* strings,
                                  const State& o, const uint32_t* pairs, size_t n,
                                  const uint32_t* targets, std::string* error) {
  std::vector<uint32_t> ids(std::min(n, kPairChunk)), groups(ids.size());
  std::vector<uint64_t> hashes(ids.size());
  std::vector<uint64_t> words;
  std::vector<int32_t> offsets;
  std::string bytes;
  for (size_t begin = 0; begin < n;) {
    size_t m = 0;
    size_t before;
    if (wide != nullptr) {
      words.resize(2 * ids.size());
      for (; m < ids.size() && begin + m < n; ++m) {
        const size_t p = pairs != nullptr ? pairs[begin + m] : begin + m;
        const uint64_t* pair = o.distinct_wide->key(p);
        groups[m] = targets[pair[0]];
        words[2 * m] = groups[m];
        words[2 * m + 1] = pair[1];
      }
      HashWideRows(words.data(), 2, m, hashes.data());
      before = wide->size();
      if (!wide->FindOrInsert(words.data(), hashes.data(), m, nullptr, ids.data(), error)) return false;
    } else {
      // (group, value) rows: this side's 4-byte group id, then the value's bytes (or the value
      // alone: ungrouped).
      bytes.clear();
      offsets.assign(1, 0);
      for (; m < ids.size() && begin + m < n; ++m) {
        const size_t p = pairs != nullptr ? pairs[begin + m] : begin + m;
        const std::string_view row = o.distinct_strings->key(p);
        if (m > 0 && bytes.size() + row.size() > static_cast<size_t>(INT32_MAX)) break;
        if (o.bare_values) {
          groups[m] = targets[0];
          bytes.append(row.data(), row.size());
        } else {
          uint32_t g;
          std::memcpy(&g, row.data(), 4);
          groups[m] = targets[g];
          bytes.append(reinterpret_cast<const char*>(&groups[m]), 4);
          bytes.append(row.data() + 4, row.size() - 4);
        }
        offsets.push_back(static_cast<int32_t>(bytes.size()));
      }
      const uint8_t* data = reinterpret_cast<const uint8_t*>(bytes.data());
      HashStrings(offsets.data(), data, m, nullptr, hashes.data());
      before = strings->size();
      if (!strings->FindOrInsert(offsets.data(), data, nullptr, hashes.data(), m, nullptr, ids.data(), error)) {
        return false;
      }
    }
    CountNewPairs(ids.data(), groups.data(), m, before, &s.counts);
    begin += m;
  }
  return true;
}

bool AggregateStates::MergeDistinct(State& s, const State& o, const std::vector<uint32_t>& mapping,
                                    std::string* error) {
  if (s.partitioned) return true;  // counted over every thread's partitions afterwards
  if (s.distinct_fixed) {
    std::vector<uint32_t> ignored;
    if (!s.distinct_fixed->Merge(*o.distinct_fixed, &ignored, error)) return false;
    s.counts[0] = static_cast<int64_t>(s.distinct_fixed->size());
    return true;
  }
  if (pairs_disjoint_) {
    // Split by value: no pair is in both sets, so other's counts add up.
    for (size_t g = 0; g < o.counts.size() && g < mapping.size(); ++g) {
      s.counts[mapping[g]] += o.counts[g];
    }
    return true;
  }
  // Re-insert other's (group, value) pairs under this side's group ids; a pair that is new
  // here adds one to its group's count.
  const size_t n = o.distinct_wide ? o.distinct_wide->size() : o.distinct_strings->size();
  return InsertPairs(s, s.distinct_wide.get(), s.distinct_strings.get(), o, nullptr, n, mapping.data(), error);
}

bool AggregateStates::Merge(const AggregateStates& other, const std::vector<uint32_t>& mapping,
                            size_t groups, std::string* error, bool insert_pairs) {
  if (!Resize(groups, error)) return false;
  for (size_t a = 0; a < state_.size(); ++a) {
    State& s = state_[a];
    const State& o = other.state_[a];
    if (s.kind == AggKind::kCountDistinct) {
      if (!insert_pairs && IsDistinctPairs(a) && !pairs_disjoint_) continue;
      if (!MergeDistinct(s, o, mapping, error)) return false;
      continue;
    }
    for (size_t g = 0; g < o.counts.size() && g < mapping.size(); ++g) MergeOne(s, o, g, mapping[g]);
  }
  return true;
}

void AggregateStates::MergeRange(const AggregateStates& other, size_t begin, size_t end,
                                 const uint32_t* targets) {
  for (size_t a = 0; a < state_.size(); ++a) {
    if (state_[a].kind == AggKind::kCountDistinct) continue;
    for (size_t g = begin; g < end; ++g) MergeOne(state_[a], other.state_[a], g, targets[g]);
  }
}

void AggregateStates::CopyGroups(const AggregateStates& other, size_t begin, size_t end, size_t to) {
  const auto from = [begin](const auto& array) {
    return array.begin() + static_cast<std::ptrdiff_t>(begin);
  };
  const auto at = [to](auto& array) { return array.begin() + static_cast<std::ptrdiff_t>(to); };
  const size_t n = end - begin;
  for (size_t a = 0; a < state_.size(); ++a) {
    State& s = state_[a];
    const State& o = other.state_[a];
    std::copy_n(from(o.counts), n, at(s.counts));
    if (o.overflowed.IsSet()) s.overflowed.Set();
    if (s.function) {
      // Into groups ResizeForCopy left empty: a merge is a copy.
      for (size_t k = 0; k < n; ++k) s.function->Merge(*o.function, begin + k, to + k);
    }
    if (!o.ints.empty()) std::copy_n(from(o.ints), n, at(s.ints));
    if (!o.sums.empty()) std::copy_n(from(o.sums), n, at(s.sums));
    if (!o.reals.empty()) std::copy_n(from(o.reals), n, at(s.reals));
    if (!o.strings.empty()) std::copy_n(from(o.strings), n, at(s.strings));
  }
}

bool AggregateStates::HasCapacity(size_t groups) const {
  for (const State& s : state_) {
    if (s.counts.capacity() < groups) return false;
    if (s.function && s.function->groups() < groups) return false;
    if (!KeepsValues(s.kind)) continue;
    const size_t capacity = IsString(s.arg_type) ? s.strings.capacity()
                            : IsFloat(s.arg_type) ? s.reals.capacity()
                            : s.narrow_sum        ? s.sums.capacity()
                                                  : s.ints.capacity();
    if (capacity < groups) return false;
  }
  return true;
}

bool AggregateStates::IsDistinctPairs(size_t a) const {
  return state_[a].distinct_wide != nullptr || state_[a].distinct_strings != nullptr;
}

size_t AggregateStates::DistinctPairs(size_t a) const {
  const State& s = state_[a];
  return s.distinct_wide ? s.distinct_wide->size() : s.distinct_strings ? s.distinct_strings->size() : 0;
}

bool AggregateStates::ReserveDistinctPairs(size_t a, size_t pairs, std::string* error) {
  State& s = state_[a];
  return s.distinct_wide == nullptr || pairs == 0 || s.distinct_wide->Reserve(pairs, error);
}

uint32_t AggregateStates::DistinctPairGroup(size_t a, size_t pair) const {
  const State& s = state_[a];
  if (s.distinct_wide) return static_cast<uint32_t>(s.distinct_wide->key(pair)[0]);
  if (s.bare_values) return 0;
  uint32_t g;
  std::memcpy(&g, s.distinct_strings->key(pair).data(), 4);
  return g;
}

bool AggregateStates::IsDistinctValues(size_t a) const {
  return ungrouped_ && (state_[a].distinct_fixed != nullptr || state_[a].distinct_strings != nullptr);
}

size_t AggregateStates::DistinctValues(size_t a) const {
  const State& s = state_[a];
  return s.distinct_fixed ? s.distinct_fixed->size() : s.distinct_strings ? s.distinct_strings->size() : 0;
}

const uint64_t* AggregateStates::DistinctValueHashes(size_t a) const {
  const State& s = state_[a];
  return s.distinct_fixed ? s.distinct_fixed->hashes() : s.distinct_strings->hashes();
}

bool AggregateStates::CountDistinctUnion(size_t a, const std::vector<ValueSource>& sources,
                                         size_t* count, std::string* error) {
  FixedKeyHashTable fixed;
  StringKeyHashTable strings;
  std::vector<uint32_t> ids;
  for (const ValueSource& source : sources) {
    const State& o = source.states->state_[a];
    ids.resize(source.n);
    const bool ok = o.distinct_fixed
                        ? fixed.MergeGroups(*o.distinct_fixed, source.items, source.n, ids.data(), error)
                        : strings.MergeGroups(*o.distinct_strings, source.items, source.n, ids.data(), error);
    if (!ok) return false;
  }
  *count = fixed.size() + strings.size();
  return true;
}

size_t AggregateStates::CountValuesNotIn(size_t a, size_t begin, size_t end,
                                         const std::vector<const AggregateStates*>& earlier) const {
  const State& s = state_[a];
  const size_t n = end - begin;
  if (n == 0) return 0;
  // String keys lie back to back in the set's arena: the range's offsets are made relative to
  // its first key, as int32 (a key is shorter than 2 GB, as in a column); a range with more
  // bytes is counted in parts.
  std::vector<int32_t> offsets;
  if (!s.distinct_fixed) {
    const StringKeyHashTable& set = *s.distinct_strings;
    offsets.assign(n + 1, 0);
    size_t bytes = 0;
    for (size_t i = 0; i < n; ++i) {
      const size_t size = set.key(begin + i).size();
      if (i > 0 && bytes + size > static_cast<size_t>(INT32_MAX)) {
        return CountValuesNotIn(a, begin, begin + i, earlier) + CountValuesNotIn(a, begin + i, end, earlier);
      }
      bytes += size;
      offsets[i + 1] = static_cast<int32_t>(bytes);
    }
  }
  // Bit i: item begin + i is in no earlier set found so far (each lookup skips the found ones).
  std::vector<uint64_t> left = AllItems(n);
  std::vector<uint32_t> ids(n);
  if (s.distinct_fixed) {
    const uint64_t* keys = s.distinct_fixed->keys() + begin;
    const uint64_t* hashes = s.distinct_fixed->hashes() + begin;
    for (const AggregateStates* other : earlier) {
      other->state_[a].distinct_fixed->Find(keys, hashes, n, left.data(), ids.data());
      DropFound(ids, &left);
    }
  } else {
    const StringKeyHashTable& set = *s.distinct_strings;
    std::vector<uint64_t> validity(BitmaskWords(n), ~uint64_t{0});
    for (size_t i = 0; i < n; ++i) {
      if (set.is_null(begin + i)) validity[i / 64] &= ~(uint64_t{1} << (i % 64));
    }
    const uint8_t* data = reinterpret_cast<const uint8_t*>(set.key(begin).data());
    for (const AggregateStates* other : earlier) {
      other->state_[a].distinct_strings->Find(offsets.data(), data, validity.data(),
                                              set.hashes() + begin, n, left.data(), ids.data());
      DropFound(ids, &left);
    }
  }
  return CountBits(left.data(), n);
}

void AggregateStates::CountPairsNotIn(size_t a, size_t begin, size_t end, const uint32_t* targets,
                                      const std::vector<PairLookup>& earlier, int64_t* counts) const {
  const State& s = state_[a];
  const size_t n = end - begin;
  if (n == 0) return;
  if (!s.distinct_wide) {
    // String pairs are looked up as rows of int32 offsets: a range of more bytes in halves.
    size_t bytes = 0;
    for (size_t i = 0; i < n; ++i) bytes += s.distinct_strings->key(begin + i).size();
    if (bytes > static_cast<size_t>(INT32_MAX) && n > 1) {
      CountPairsNotIn(a, begin, begin + n / 2, targets, earlier, counts);
      CountPairsNotIn(a, begin + n / 2, end, targets, earlier, counts);
      return;
    }
  }
  std::vector<uint32_t> merged(n), ids(n);
  for (size_t i = 0; i < n; ++i) merged[i] = targets[DistinctPairGroup(a, begin + i)];
  // Bit i: pair begin + i is in no earlier set found so far.
  std::vector<uint64_t> left = AllItems(n);
  std::vector<uint64_t> selection(BitmaskWords(n)), hashes(n), words;
  std::vector<int32_t> offsets;
  std::string bytes;
  for (const PairLookup& side : earlier) {
    // The pairs still left whose group that side has, under its group id.
    std::fill(selection.begin(), selection.end(), 0);
    const auto local_group = [&](size_t i) -> uint32_t {
      return merged[i] < side.groups ? side.local[merged[i]] : kNoGroup;
    };
    const State& o = side.states->state_[a];
    if (s.distinct_wide) {
      words.assign(2 * n, 0);
      for (size_t i = 0; i < n; ++i) {
        const uint32_t g = local_group(i);
        if (g == kNoGroup || !BitmaskGet(left.data(), i)) continue;
        BitmaskSet(selection.data(), i);
        words[2 * i] = g;
        words[2 * i + 1] = s.distinct_wide->key(begin + i)[1];
      }
      HashWideRows(words.data(), 2, n, hashes.data());  // rows left out hash as (0, 0), unread
      o.distinct_wide->Find(words.data(), hashes.data(), n, selection.data(), ids.data());
    } else {
      // Rows of this side's 4-byte group id, then the value's bytes (as the scan builds them).
      bytes.clear();
      offsets.assign(1, 0);
      for (size_t i = 0; i < n; ++i) {
        const uint32_t g = local_group(i);
        if (g != kNoGroup && BitmaskGet(left.data(), i)) {
          BitmaskSet(selection.data(), i);
          const std::string_view row = s.distinct_strings->key(begin + i);
          bytes.append(reinterpret_cast<const char*>(&g), 4);
          bytes.append(row.data() + 4, row.size() - 4);
        }
        offsets.push_back(static_cast<int32_t>(bytes.size()));
      }
      bytes.push_back('\0');  // data() stays valid with no bytes
      const uint8_t* data = reinterpret_cast<const uint8_t*>(bytes.data());
      HashStrings(offsets.data(), data, n, nullptr, hashes.data());
      o.distinct_strings->Find(offsets.data(), data, nullptr, hashes.data(), n, selection.data(), ids.data());
    }
    DropFound(ids, &left);
  }
  for (size_t i = 0; i < n; ++i) counts[merged[i]] += static_cast<int64_t>((left[i / 64] >> (i % 64)) & 1);
}

void AggregateStates::AddCounts(size_t a, const int64_t* counts, size_t groups) {
  StateArray<int64_t>& mine = state_[a].counts;
  for (size_t g = 0; g < groups && g < mine.size(); ++g) mine[g] += counts[g];
}

bool AggregateStates::MergeDistinctPartition(size_t a, const std::vector<PairSource>& sources,
                                             std::string* error) {
  State& s = state_[a];
  WideKeyHashTable wide(2);
  StringKeyHashTable strings;
  for (const PairSource& source : sources) {
    if (!InsertPairs(s, s.distinct_wide ? &wide : nullptr, s.distinct_wide ? nullptr : &strings,
                     source.states->state_[a], source.pairs, source.n, source.targets, error)) {
      return false;
    }
  }
  return true;
}

}  // namespace exec
}  // namespace laneql
