// approx_count_distinct: a HyperLogLog sketch per group (Flajolet, Fusy, Gandouet and Meunier,
// 2007) of 4,096 six-bit registers, with linear counting for small estimates; a group keeps
// the distinct 64-bit hashes of its first 256 values instead (exact below that), turning them
// into registers past it. Hashes are the engine's value hashes (COUNT(DISTINCT)'s words: -0
// as 0, one NaN; strings by their bytes). Registers merge by maximum and hash sets by union,
// so the answer does not depend on how rows were split among threads.
#include <algorithm>
#include <cmath>
#include <vector>

#include "laneql/group_hash_table.h"
#include "laneql/hash.h"
#include "laneql/int128.h"
#include "src/exec/aggregate_function_state.h"
#include "src/exec/aggregate_states.h"

namespace laneql {
namespace exec {
namespace {

constexpr int kIndexBits = 12;
constexpr size_t kRegisters = size_t{1} << kIndexBits;
constexpr size_t kSparseMax = 256;

struct Sketch {
  std::vector<uint64_t> hashes;    // sorted, distinct; while registers is empty
  std::vector<uint8_t> registers;  // kRegisters once past kSparseMax hashes
};

void AddToRegisters(std::vector<uint8_t>* registers, uint64_t hash) {
  const size_t index = static_cast<size_t>(hash >> (64 - kIndexBits));
  // The rank of the first set bit among the other 52 bits (53 when none is).
  const uint64_t rest = hash << kIndexBits;
  const uint8_t rank = static_cast<uint8_t>(rest == 0 ? 64 - kIndexBits + 1 : __builtin_clzll(rest) + 1);
  if ((*registers)[index] < rank) (*registers)[index] = rank;
}

void MakeDense(Sketch* s) {
  s->registers.assign(kRegisters, 0);
  for (uint64_t h : s->hashes) AddToRegisters(&s->registers, h);
  s->hashes.clear();
  s->hashes.shrink_to_fit();
}

// Adds hashes[0..n) (sorted, distinct) to the sketch.
void AddHashes(Sketch* s, const uint64_t* hashes, size_t n) {
  if (!s->registers.empty()) {
    for (size_t i = 0; i < n; ++i) AddToRegisters(&s->registers, hashes[i]);
    return;
  }
  std::vector<uint64_t> merged;
  merged.reserve(s->hashes.size() + n);
  std::set_union(s->hashes.begin(), s->hashes.end(), hashes, hashes + n, std::back_inserter(merged));
  s->hashes = std::move(merged);
  if (s->hashes.size() > kSparseMax) MakeDense(s);
}

// 2^-r for every rank a register can hold (0 to 53), exact: a table instead of std::ldexp, a
// libm call per register (4,096 a group) that was a tenth of approx_count_distinct by g.
struct InversePowers {
  double values[64];
  InversePowers() {
    for (int r = 0; r < 64; ++r) values[r] = std::ldexp(1.0, -r);
  }
};

int64_t Estimate(const Sketch& s) {
  if (s.registers.empty()) return static_cast<int64_t>(s.hashes.size());
  static const InversePowers kInverse;
  const double m = static_cast<double>(kRegisters);
  double sum = 0;
  size_t zeros = 0;
  for (uint8_t r : s.registers) {
    sum += kInverse.values[r & 63];
    zeros += r == 0;
  }
  const double alpha = 0.7213 / (1.0 + 1.079 / m);
  double estimate = alpha * m * m / sum;
  if (estimate <= 2.5 * m && zeros != 0) estimate = m * std::log(m / static_cast<double>(zeros));
  return static_cast<int64_t>(std::llround(estimate));
}

class SketchState final : public AggregateFunctionState {
 public:
  bool Resize(size_t groups, std::string* error) override {
    if (groups <= sketches_.size()) return true;
    const size_t before = sketches_.capacity();
    sketches_.resize(groups);
    return ChargeAggregateMemory((sketches_.capacity() - before) * sizeof(Sketch), error);
  }
  size_t groups() const override { return sketches_.size(); }

  bool Update(const Vec& arg, const Vec*, const uint32_t* group_ids, size_t count,
              std::string* error) override {
    hashes_.resize(count);
    if (IsString(arg.type) && !arg.constant) {
      // The SIMD string hash (the same words as the reference's below): the scalar one was a
      // third of a grouped approx_count_distinct of strings.
      HashStrings(arg.offsets, static_cast<const uint8_t*>(arg.values), count, arg.validity, hashes_.data());
    } else if (IsString(arg.type)) {
      for (size_t i = 0; i < count; ++i) {
        if (arg.IsNull(i)) continue;
        const std::string_view v = arg.Str(i);
        hashes_[i] = reference::Mix(reference::StringWord(reinterpret_cast<const uint8_t*>(v.data()), v.size()));
      }
    } else if (TypeByteWidth(arg.type) == 16) {  // int128, interval
      for (size_t i = 0; i < count; ++i) {
        if (arg.IsNull(i)) continue;
        const Int128 v = arg.Get<Int128>(i);
        hashes_[i] = reference::CombineWord(reference::Mix(Int128Low(v)), static_cast<uint64_t>(Int128High(v)));
      }
    } else {
      words_.resize(count);
      DistinctWords(arg, count, words_.data(), 1);
      for (size_t i = 0; i < count; ++i) hashes_[i] = reference::Mix(words_[i]);
    }
    // A dense sketch takes each hash as it comes (a register's max does not care about the
    // order); each sparse group's hashes of this batch are sorted and made distinct, then added
    // at once. (Sorting every batch was 60 % of an ungrouped approx_count_distinct, whose one
    // sketch is dense after its first few thousand values.)
    order_.clear();
    // Many groups' registers (4 KB each) outgrow the caches: the register a row a few rows on
    // will update is fetched early.
    constexpr size_t kAhead = 8;
    for (size_t i = 0; i < count; ++i) {
      if (i + kAhead < count && group_ids[i + kAhead] != kNoGroup) {
        const std::vector<uint8_t>& ahead = sketches_[group_ids[i + kAhead]].registers;
        if (!ahead.empty()) __builtin_prefetch(ahead.data() + (hashes_[i + kAhead] >> (64 - kIndexBits)), 1);
      }
      if (group_ids[i] == kNoGroup || arg.IsNull(i)) continue;
      Sketch& sketch = sketches_[group_ids[i]];
      if (!sketch.registers.empty()) {
        AddToRegisters(&sketch.registers, hashes_[i]);
      } else {
        order_.push_back(static_cast<uint32_t>(i));
      }
    }
    std::sort(order_.begin(), order_.end(), [&](uint32_t a, uint32_t b) {
      return group_ids[a] != group_ids[b] ? group_ids[a] < group_ids[b] : hashes_[a] < hashes_[b];
    });
    size_t bytes = 0;
    std::vector<uint64_t> run;
    for (size_t k = 0; k < order_.size();) {
      const uint32_t g = group_ids[order_[k]];
      run.clear();
      for (; k < order_.size() && group_ids[order_[k]] == g; ++k) {
        const uint64_t h = hashes_[order_[k]];
        if (run.empty() || run.back() != h) run.push_back(h);
      }
      Sketch& s = sketches_[g];
      const size_t before = s.hashes.capacity() * 8 + s.registers.capacity();
      AddHashes(&s, run.data(), run.size());
      const size_t after = s.hashes.capacity() * 8 + s.registers.capacity();
      if (after > before) bytes += after - before;
    }
    return ChargeAggregateMemory(bytes, error);
  }

  void Merge(const AggregateFunctionState& other, size_t g, size_t t) override {
    const Sketch& o = static_cast<const SketchState&>(other).sketches_[g];
    Sketch& s = sketches_[t];
    if (o.registers.empty()) {
      AddHashes(&s, o.hashes.data(), o.hashes.size());
      return;
    }
    if (s.registers.empty()) MakeDense(&s);
    for (size_t r = 0; r < kRegisters; ++r) s.registers[r] = std::max(s.registers[r], o.registers[r]);
  }

  bool Append(size_t g, Column* out, std::string* error) const override {
    return out->Append<int64_t>(g < sketches_.size() ? Estimate(sketches_[g]) : 0, error);
  }

 private:
  std::vector<Sketch> sketches_;
  std::vector<uint64_t> hashes_, words_;
  std::vector<uint32_t> order_;
};

}  // namespace

std::unique_ptr<AggregateFunctionState> MakeSketchState(const plan::Aggregate&) {
  return std::make_unique<SketchState>();
}

}  // namespace exec
}  // namespace laneql
