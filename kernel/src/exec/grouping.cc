// Grouper: key values -> dense group ids, by lookup table, packed word, wide words or strings.
#include "src/exec/grouping.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <numeric>
#include <type_traits>
#include <limits>

#include "laneql/hash.h"
#include "src/exec/expr_eval.h"
#include "src/common/query_budget.h"
#include "src/exec/row_offsets.h"

namespace laneql {
namespace exec {
namespace {

constexpr size_t kDirectSlots = Grouper::kDirectSlots;
constexpr int32_t kDirectNullSlot = 65536;

bool IsDirectType(TypeId t) {
  return t == TypeId::kInt8 || t == TypeId::kUInt8 || t == TypeId::kInt16 || t == TypeId::kUInt16 ||
         t == TypeId::kBool;
}

int32_t DirectBias(TypeId t) { return t == TypeId::kInt8 ? 128 : t == TypeId::kInt16 ? 32768 : 0; }

// Raw little-endian bytes of row i with floats made canonical (-0 -> +0, one NaN), so that
// values SQL calls equal have equal bytes.
void CanonicalBytes(const Vec& vec, size_t i, uint8_t* out) {
  const size_t width = TypeByteWidth(vec.type);
  const uint8_t* src = vec.values + vec.Row(i) * width;
  if (vec.type == TypeId::kFloat64) {
    double d;
    std::memcpy(&d, src, 8);
    if (d == 0) d = 0;
    if (std::isnan(d)) d = std::numeric_limits<double>::quiet_NaN();
    std::memcpy(out, &d, 8);
  } else if (vec.type == TypeId::kFloat32) {
    float f;
    std::memcpy(&f, src, 4);
    if (f == 0) f = 0;
    if (std::isnan(f)) f = std::numeric_limits<float>::quiet_NaN();
    std::memcpy(out, &f, 4);
  } else {
    std::memcpy(out, src, width);
  }
}

// ORs an integer key's values into the packed words at `byte_offset` (the words are zeroed, the
// machine little-endian, as the words' byte layout assumes). A fixed width per instantiation:
// a memcpy of the width known only at run time was a libc call per row, 17 % of GROUP BY
// CounterID's time.
// With `assign`, the key's word is its own (a wide row's): written, not ORed, so it need not be
// zeroed first.
template <class T>
void PackKeyOfWidth(const Vec& key, size_t count, size_t byte_offset, uint64_t* packed, size_t row_words,
                    bool assign) {
  const size_t stride = key.constant ? 0 : sizeof(T);
  const unsigned shift = static_cast<unsigned>(8 * byte_offset);
  for (size_t i = 0; i < count; ++i) {
    T value;
    std::memcpy(&value, key.values + i * stride, sizeof(T));
    const uint64_t word = static_cast<uint64_t>(value) << shift;
    packed[i * row_words] = assign ? word : packed[i * row_words] | word;
  }
}

// Row i's word is packed[i * row_words] (1: packed keys; more: one word of a wide key's row).
void PackKeyBytes(const Vec& key, size_t count, size_t byte_offset, uint64_t* packed, size_t row_words = 1,
                  bool assign = false) {
  switch (TypeByteWidth(key.type)) {
    case 1: return PackKeyOfWidth<uint8_t>(key, count, byte_offset, packed, row_words, assign);
    case 2: return PackKeyOfWidth<uint16_t>(key, count, byte_offset, packed, row_words, assign);
    case 4: return PackKeyOfWidth<uint32_t>(key, count, byte_offset, packed, row_words, assign);
    default: return PackKeyOfWidth<uint64_t>(key, count, byte_offset, packed, row_words, assign);
  }
}

template <class T>
bool AppendRaw(const uint8_t* bytes, Column* column, std::string* error) {
  T v;
  std::memcpy(&v, bytes, sizeof(T));
  return column->Append(v, error);
}

bool AppendFixedBytes(TypeId type, const uint8_t* bytes, Column* column, std::string* error) {
  bool ok = false;
  VisitFixed(type, [&](auto tag) { ok = AppendRaw<decltype(tag)>(bytes, column, error); });
  return ok;
}

}  // namespace

bool ExpandConstant(Vec* vec, std::string* error) {
  if (!vec->constant) return true;
  Vec full;
  const size_t n = vec->count;
  if (IsString(vec->type)) {
    StringVecBuilder builder;
    if (!builder.Init(n, false, error)) return false;
    const bool null = vec->IsNull(0);
    const std::string_view s = vec->Str(0);
    for (size_t i = 0; i < n; ++i) {
      if (null) builder.AppendNull(); else if (!builder.Append(s, error)) return false;
    }
    if (!builder.Finish(&full, error)) return false;
  } else {
    const size_t width = TypeByteWidth(vec->type);
    full.type = vec->type;
    full.count = n;
    if (!full.own_values.Resize(n * width, error)) return false;
    for (size_t i = 0; i < n; ++i) std::memcpy(full.own_values.data() + i * width, vec->values, width);
    full.values = full.own_values.data();
    if (vec->IsNull(0)) {
      uint64_t* bits = full.InitValidity(error);
      if (bits == nullptr) return false;
      std::memset(bits, 0, BitmaskWords(n) * 8);
    }
  }
  *vec = std::move(full);
  return true;
}

bool Grouper::Init(const std::vector<TypeId>& key_types, const std::vector<bool>& nullable,
                   bool lookup_table, std::string* error, const int64_t* direct_min) {
  types_ = key_types;
  bool any_string = false, any_nullable = false;
  size_t bytes = 0, words = 0;
  for (size_t i = 0; i < key_types.size(); ++i) {
    any_string |= IsString(key_types[i]);
    any_nullable |= nullable[i];
    if (!IsString(key_types[i])) {
      byte_offsets_.push_back(bytes);
      bytes += TypeByteWidth(key_types[i]);
      words += TypeByteWidth(key_types[i]) == 16 ? 2 : 1;  // int128, interval
    }
  }
  if (lookup_table && key_types.size() == 1 && (IsDirectType(key_types[0]) || direct_min != nullptr)) {
    strategy_ = Strategy::kDirect;
    direct_bias_ = IsDirectType(key_types[0]) ? DirectBias(key_types[0]) : -*direct_min;
    slot_group_.assign(kDirectSlots + 1, kNoGroup);
  } else if (!any_string && !any_nullable && bytes <= 8) {
    strategy_ = Strategy::kPacked;
  } else if (!any_string) {
    strategy_ = Strategy::kWide;
    null_word_ = any_nullable;
    words_ = words + (null_word_ ? 1 : 0);
    wide_ = std::make_unique<WideKeyHashTable>(words_);
  } else if (key_types.size() == 1) {
    strategy_ = Strategy::kString;
  } else {
    strategy_ = Strategy::kSerialized;
  }
  (void)error;
  return true;
}

size_t Grouper::size() const {
  switch (strategy_) {
    case Strategy::kDirect: return direct_keys_.size();
    case Strategy::kPacked: return fixed_.size();
    case Strategy::kWide: return wide_->size();
    default: return strings_.size();
  }
}

namespace {

// A fixed-width key value's bytes, `width` known at compile time so the copy is one move.
template <size_t kWidth>
void CopyKeyBytes(const uint8_t* src, uint8_t* out) {
  std::memcpy(out, src, kWidth);
}

}  // namespace

bool Grouper::Serialize(const std::vector<Vec>& keys, size_t count, PreparedKeys* prepared,
                        std::string* error) const {
  // Sizes first (a flag byte per key, fixed widths, 4 + length per string), then one buffer.
  if (!prepared->ser_offsets.Resize((count + 1) * sizeof(int32_t), error)) return false;
  int32_t* offsets = prepared->ser_offsets.As<int32_t>();
  // What the row loops need of each key, worked out once per batch rather than per row.
  struct KeyLayout {
    const Vec* vec;
    bool string;
    bool canonical;  // floats: -0.0 as 0.0, one NaN (CanonicalBytes)
    size_t width;
  };
  const size_t n_keys = keys.size();
  std::vector<KeyLayout> layout(n_keys);  // one allocation per batch of rows
  size_t fixed_bytes = n_keys;
  bool any_string = false;
  for (size_t k = 0; k < n_keys; ++k) {
    const Vec& key = keys[k];
    const bool string = IsString(key.type);
    const size_t width = string ? 0 : TypeByteWidth(key.type);
    layout[k] = KeyLayout{&key, string, key.type == TypeId::kFloat64 || key.type == TypeId::kFloat32, width};
    fixed_bytes += string ? 4 : width;
    any_string |= string;
  }
  size_t total = 0;
  const auto row_bytes = [&](size_t i) {
    size_t bytes = fixed_bytes;
    if (any_string) {
      for (size_t k = 0; k < n_keys; ++k) {
        // A NULL string serialises as no bytes, whatever bytes its slot holds.
        if (layout[k].string && !layout[k].vec->IsNull(i)) bytes += layout[k].vec->Str(i).size();
      }
    }
    return bytes;
  };
  if (!RunningOffsets(count, row_bytes, offsets, &total, "GROUP BY keys of one batch exceed 2 GiB",
                      error)) {
    return false;
  }
  if (!prepared->ser_data.ResizeForOverwrite(total, error)) return false;
  uint8_t* out = prepared->ser_data.data();
  for (size_t i = 0; i < count; ++i) {
    uint8_t* p = out + offsets[i];
    for (size_t k = 0; k < n_keys; ++k) {
      const KeyLayout& key = layout[k];
      const bool null = key.vec->IsNull(i);
      *p++ = null ? 1 : 0;
      if (key.string) {
        const std::string_view s = null ? std::string_view() : key.vec->Str(i);
        const uint32_t len = static_cast<uint32_t>(s.size());
        std::memcpy(p, &len, 4);
        if (len != 0) std::memcpy(p + 4, s.data(), len);
        p += 4 + len;
        continue;
      }
      // NULL rows keep zero bytes, so every NULL key serialises the same.
      const uint8_t* src = key.vec->values + key.vec->Row(i) * key.width;
      if (null) {
        std::memset(p, 0, key.width);
      } else if (key.canonical) {
        CanonicalBytes(*key.vec, i, p);
      } else {
        switch (key.width) {
          case 1: CopyKeyBytes<1>(src, p); break;
          case 2: CopyKeyBytes<2>(src, p); break;
          case 4: CopyKeyBytes<4>(src, p); break;
          case 8: CopyKeyBytes<8>(src, p); break;
          case 16: CopyKeyBytes<16>(src, p); break;
          default: std::memcpy(p, src, key.width); break;
        }
      }
      p += key.width;
    }
  }
  return true;
}

bool Grouper::Assign(const std::vector<Vec>& keys, size_t count, uint32_t* group_ids,
                     std::string* error) {
  if (count == 0) return true;
  return Prepare(keys, count, &prepared_, error) && Insert(keys, prepared_, group_ids, error);
}

bool Grouper::Prepare(const std::vector<Vec>& keys, size_t count, PreparedKeys* out,
                      std::string* error) const {
  out->count = count;
  out->words = nullptr;
  if (count == 0 || strategy_ == Strategy::kDirect) return true;  // the lookup reads the keys
  if (out->hashes.size() < count) out->hashes.resize(count);
  uint64_t* hashes = out->hashes.data();
  switch (strategy_) {
    case Strategy::kDirect: return true;
    case Strategy::kPacked: {
      if (keys.size() == 1 && TypeByteWidth(keys[0].type) == 8 && !IsFloat(keys[0].type)) {
        // One 8-byte integer key: its values are the packed words as they are (no copy; the
        // copy was 7 % of GROUP BY UserID's instructions under callgrind).
        out->words = reinterpret_cast<const uint64_t*>(keys[0].values);
      } else {
        if (out->words_buf.size() < count) out->words_buf.resize(count);
        uint64_t* packed = out->words_buf.data();
        out->words = packed;
        // An integer key at byte 0 writes whole words, so they need no zeroing first (the
        // memset of every batch's words was a fifth of an owned GROUP BY g's time).
        const bool first_assigns = !IsFloat(keys[0].type) && byte_offsets_[0] == 0;
        if (!first_assigns) std::memset(packed, 0, count * 8);
        for (size_t k = 0; k < keys.size(); ++k) {
          const Vec& key = keys[k];
          if (!IsFloat(key.type)) {
            PackKeyBytes(key, count, byte_offsets_[k], packed, 1, /*assign=*/k == 0 && first_assigns);
          } else {
            uint8_t* base = reinterpret_cast<uint8_t*>(packed) + byte_offsets_[k];
            for (size_t i = 0; i < count; ++i) CanonicalBytes(key, i, base + i * 8);
          }
        }
      }
      HashKeys(out->words, count, nullptr, hashes);
      return true;
    }
    case Strategy::kWide: {
      if (out->words_buf.size() < count * words_) out->words_buf.resize(count * words_);
      uint64_t* words = out->words_buf.data();
      out->words = words;
      // Key by key, so that each copies its values at a fixed width (row by row and key by
      // key, a memcpy of a width known at run time was a libc call per value: with the
      // canonical-bytes calls around it, 15 % of GROUP BY WatchID, ClientIP's time). Integer
      // keys write their whole words; only floats' and the NULL flags' words are zeroed first
      // (zeroing every word was 1.5 % of that GROUP BY).
      size_t w = 0;
      for (size_t k = 0; k < keys.size(); ++k) {
        const Vec& key = keys[k];
        if (IsFloat(key.type) || TypeByteWidth(key.type) == 16) {
          for (size_t i = 0; i < count; ++i) {
            uint8_t* word = reinterpret_cast<uint8_t*>(words + i * words_ + w);
            std::memset(word, 0, TypeByteWidth(key.type) == 16 ? 16 : 8);
            CanonicalBytes(key, i, word);
          }
        } else {
          PackKeyBytes(key, count, 0, words + w, words_, /*assign=*/true);
        }
        w += TypeByteWidth(key.type) == 16 ? 2 : 1;
      }
      if (null_word_) {
        // A NULL key's words are zero and its bit is set in the last word (SQL groups NULLs).
        for (size_t i = 0; i < count; ++i) words[i * words_ + words_ - 1] = 0;
        w = 0;
        for (size_t k = 0; k < keys.size(); ++k) {
          const Vec& key = keys[k];
          const size_t key_words = TypeByteWidth(key.type) == 16 ? 2 : 1;
          if (key.validity != nullptr) {
            for (size_t i = 0; i < count; ++i) {
              if (!key.IsNull(i)) continue;
              uint64_t* row = words + i * words_;
              for (size_t j = 0; j < key_words; ++j) row[w + j] = 0;
              row[words_ - 1] |= uint64_t{1} << k;
            }
          }
          w += key_words;
        }
      }
      HashWords(words, count, hashes);
      return true;
    }
    case Strategy::kString: {
      const Vec& key = keys[0];
      HashStrings(key.offsets, key.values, count, key.validity, hashes);
      return true;
    }
    case Strategy::kSerialized: {
      // Every row has at least a flag byte per key, so ser_data is allocated.
      if (!Serialize(keys, count, out, error)) return false;
      HashStrings(out->ser_offsets.As<int32_t>(), out->ser_data.data(), count, nullptr, hashes);
      return true;
    }
  }
  return false;
}

size_t Grouper::KeyWords() const {
  switch (strategy_) {
    case Strategy::kPacked: return 1;
    case Strategy::kWide: return words_;
    default: return 0;
  }
}

void Grouper::HashWords(const uint64_t* words, size_t count, uint64_t* hashes) const {
  if (strategy_ == Strategy::kPacked) {
    HashKeys(words, count, nullptr, hashes);
    return;
  }
  // The SIMD kernel: a scalar Mix call per word was 5-7 % of GROUP BY WatchID, ClientIP.
  HashWideRows(words, words_, count, hashes);
}

bool Grouper::InsertKeyBytes(const int32_t* offsets, const uint8_t* bytes, const uint64_t* validity,
                             const uint64_t* hashes, size_t count, uint32_t* group_ids, std::string* error) {
  if (count == 0) return true;
  const ScopedMemoryActivity activity("growing the GROUP BY hash table");  // query_budget.h
  return strings_.FindOrInsert(offsets, bytes, validity, hashes, count, nullptr, group_ids, error, max_groups_);
}

bool Grouper::Insert(const std::vector<Vec>& keys, const PreparedKeys& prepared,
                     uint32_t* group_ids, std::string* error) {
  const size_t count = prepared.count;
  if (count == 0) return true;
  const ScopedMemoryActivity activity("growing the GROUP BY hash table");  // query_budget.h
  const uint64_t* hashes = prepared.hashes.data();
  switch (strategy_) {
    case Strategy::kDirect: {
      const Vec& key = keys[0];
      bool in_range = true;
      bool typed = true;
      const auto insert = [&](auto tag) {
        using T = decltype(tag);
        if constexpr (!std::is_integral_v<T>) {
          typed = false;  // Init gives the direct table integer keys only
        } else {
          for (size_t i = 0; i < count; ++i) {
            int64_t slot = kDirectNullSlot;
            if (!key.IsNull(i)) {
              slot = static_cast<int64_t>(key.Get<T>(i)) + direct_bias_;
              // A wider key's range is its column's, so this holds; were it ever not, an error
              // rather than a write outside the table.
              if (static_cast<uint64_t>(slot) >= kDirectSlots) {
                in_range = false;
                return;
              }
            }
            uint32_t& group = slot_group_[static_cast<size_t>(slot)];
            if (group == kNoGroup && direct_keys_.size() < max_groups_) {
              group = static_cast<uint32_t>(direct_keys_.size());
              direct_keys_.push_back(static_cast<int32_t>(slot));
            }
            group_ids[i] = group;  // kNoGroup past the cap
          }
        }
      };
      if (!VisitFixed(key.type, insert) || !typed) {  // bool as uint8
        if (error != nullptr) *error = std::string("GROUP BY: no direct table for ") + TypeName(key.type);
        return false;
      }
      if (!in_range) {
        if (error != nullptr) *error = "GROUP BY: a key outside its column's range (internal error)";
        return false;
      }
      return true;
    }
    case Strategy::kPacked:
      return fixed_.FindOrInsert(prepared.words, hashes, count, OwnedRows(hashes, count), group_ids,
                                 error, max_groups_);
    case Strategy::kWide:
      return wide_->FindOrInsert(prepared.words, hashes, count, OwnedRows(hashes, count), group_ids,
                                 error, max_groups_);
    case Strategy::kString: {
      const Vec& key = keys[0];
      return strings_.FindOrInsert(key.offsets, key.values, key.validity, hashes, count,
                                   OwnedRows(hashes, count), group_ids, error, max_groups_);
    }
    case Strategy::kSerialized:
      return strings_.FindOrInsert(prepared.ser_offsets.As<int32_t>(), prepared.ser_data.data(),
                                   nullptr, hashes, count, OwnedRows(hashes, count), group_ids,
                                   error, max_groups_);
  }
  return false;
}

void Grouper::SetOwnership(uint32_t owner, uint32_t owners) { ownership_.Set(owner, owners); }

const uint64_t* Grouper::OwnedRows(const uint64_t* hashes, size_t count) {
  if (!ownership_.shared()) return nullptr;
  owned_.resize((count + 63) / 64);
  ownership_.Mark(hashes, count, owned_.data(), /*and_into=*/false);
  return owned_.data();
}

bool Grouper::Merge(const Grouper& other, std::vector<uint32_t>* mapping, std::string* error) {
  switch (strategy_) {
    case Strategy::kDirect: {
      std::vector<uint32_t> all(other.direct_keys_.size());
      std::iota(all.begin(), all.end(), 0u);
      mapping->resize(all.size());
      return MergeGroups(other, all.data(), all.size(), mapping->data(), error);
    }
    case Strategy::kPacked: return fixed_.Merge(other.fixed_, mapping, error);
    case Strategy::kWide: return wide_->Merge(*other.wide_, mapping, error);
    default: return strings_.Merge(other.strings_, mapping, error);
  }
}

bool Grouper::StartKeyColumns(size_t rows, size_t string_bytes, std::vector<Column>* out,
                              std::string* error) const {
  out->clear();
  for (TypeId type : types_) {
    out->emplace_back(type);
    if (!out->back().Reserve(rows, IsString(type) ? string_bytes : 0, error)) return false;
  }
  return true;
}

bool Grouper::AppendKey(size_t g, std::vector<Column>* out, std::string* error) const {
  switch (strategy_) {
    case Strategy::kDirect: {
      const int32_t slot = direct_keys_[g];
      Column& column = (*out)[0];
      if (slot == kDirectNullSlot) {
        if (!column.AppendNull(error)) return false;
        break;
      }
      // The value back from its slot, stored at the key's width (little-endian, as the
      // columns are: the low bytes of the int64).
      const int64_t v = static_cast<int64_t>(slot) - direct_bias_;
      uint8_t bytes[8];
      std::memcpy(bytes, &v, sizeof(v));
      if (!AppendFixedBytes(types_[0], bytes, &column, error)) return false;
      break;
    }
    case Strategy::kPacked: {
      const uint8_t* word = reinterpret_cast<const uint8_t*>(fixed_.keys() + g);
      for (size_t k = 0; k < types_.size(); ++k) {
        if (!AppendFixedBytes(types_[k], word + byte_offsets_[k], &(*out)[k], error)) return false;
      }
      break;
    }
    case Strategy::kWide: {
      const uint64_t* row = wide_->key(g);
      const uint64_t nulls = null_word_ ? row[words_ - 1] : 0;
      size_t w = 0;
      for (size_t k = 0; k < types_.size(); ++k) {
        const bool ok = (nulls >> k) & 1 ? (*out)[k].AppendNull(error)
                                         : AppendFixedBytes(types_[k], reinterpret_cast<const uint8_t*>(row + w), &(*out)[k], error);
        if (!ok) return false;
        w += TypeByteWidth(types_[k]) == 16 ? 2 : 1;
      }
      break;
    }
    case Strategy::kString: {
      const bool ok = strings_.is_null(g) ? (*out)[0].AppendNull(error)
                                          : (*out)[0].AppendString(strings_.key(g), error);
      if (!ok) return false;
      break;
    }
    case Strategy::kSerialized: {
      const std::string_view row = strings_.key(g);
      size_t p = 0;
      for (size_t k = 0; k < types_.size(); ++k) {
        Column& column = (*out)[k];
        const bool null = row[p++] == '\1';
        bool ok;
        if (IsString(types_[k])) {
          uint32_t len;
          std::memcpy(&len, row.data() + p, 4);
          p += 4;
          ok = null ? column.AppendNull(error) : column.AppendString(row.substr(p, len), error);
          p += len;
        } else {
          ok = null ? column.AppendNull(error)
                    : AppendFixedBytes(types_[k], reinterpret_cast<const uint8_t*>(row.data() + p), &column, error);
          p += TypeByteWidth(types_[k]);
        }
        if (!ok) return false;
      }
      break;
    }
  }
  return true;
}

// Packed keys (no NULLs) column by column: key k of every group copied straight out of the
// group words, instead of one Append per key per group (GROUP BY ClientIP with derived keys
// built its 1.8 M keys in 20 ms that way, a third of the query's serial output step).
namespace {
template <class T>
void CopyPackedKey(const uint64_t* words, const std::vector<uint32_t>* ids, size_t rows, size_t offset,
                   T* out) {
  const uint8_t* base = reinterpret_cast<const uint8_t*>(words) + offset;
  for (size_t row = 0; row < rows; ++row) {
    const size_t g = ids != nullptr ? (*ids)[row] : row;
    std::memcpy(out + row, base + g * sizeof(uint64_t), sizeof(T));
  }
}
}  // namespace

void Grouper::CopyPackedKeys(const std::vector<uint32_t>* ids, size_t rows,
                             const std::vector<uint8_t*>& outs) const {
  for (size_t k = 0; k < types_.size(); ++k) {
    VisitFixed(types_[k], [&](auto tag) {
      using T = decltype(tag);
      CopyPackedKey<T>(fixed_.keys(), ids, rows, byte_offsets_[k], reinterpret_cast<T*>(outs[k]));
    });
  }
}

bool Grouper::StartPackedKeys(size_t rows, std::vector<AlignedBuffer>* values, std::string* error) const {
  values->resize(types_.size());
  for (size_t k = 0; k < types_.size(); ++k) {
    if (!(*values)[k].Resize(rows * TypeByteWidth(types_[k]), error)) return false;
  }
  return true;
}

bool Grouper::FinishPackedKeys(size_t rows, std::vector<AlignedBuffer>* values, std::vector<Column>* out,
                               std::string* error) const {
  out->clear();
  for (size_t k = 0; k < types_.size(); ++k) {
    out->emplace_back(types_[k]);
    if (!Column::FromBuffers(types_[k], rows, std::move((*values)[k]), AlignedBuffer(), AlignedBuffer(),
                             &out->back(), error)) {
      return false;
    }
  }
  return true;
}

bool Grouper::KeyColumns(const std::vector<uint32_t>* ids, std::vector<Column>* out,
                         std::string* error) const {
  const size_t rows = ids != nullptr ? ids->size() : size();
  if (strategy_ == Strategy::kPacked) {
    std::vector<AlignedBuffer> values;
    if (!StartPackedKeys(rows, &values, error)) return false;
    std::vector<uint8_t*> outs;
    for (AlignedBuffer& buffer : values) outs.push_back(buffer.data());
    CopyPackedKeys(ids, rows, outs);
    return FinishPackedKeys(rows, &values, out, error);
  }
  const size_t string_bytes = strategy_ == Strategy::kString && ids == nullptr ? strings_.arena_bytes() : 0;
  if (!StartKeyColumns(rows, string_bytes, out, error)) return false;
  for (size_t row = 0; row < rows; ++row) {
    if (!AppendKey(ids != nullptr ? (*ids)[row] : row, out, error)) return false;
  }
  return true;
}

const uint64_t* Grouper::GroupHashes() const {
  switch (strategy_) {
    case Strategy::kDirect: return nullptr;
    case Strategy::kPacked: return fixed_.hashes();
    case Strategy::kWide: return wide_->hashes();
    default: return strings_.hashes();
  }
}

bool Grouper::Reserve(size_t groups, size_t key_bytes, std::string* error) {
  switch (strategy_) {
    case Strategy::kDirect: return true;
    case Strategy::kPacked: return fixed_.Reserve(groups, error);
    case Strategy::kWide: return wide_->Reserve(groups, error);
    default: return strings_.Reserve(groups, key_bytes, error);
  }
}

size_t Grouper::KeyBytes() const {
  return strategy_ == Strategy::kString || strategy_ == Strategy::kSerialized ? strings_.arena_bytes() : 0;
}

bool Grouper::MergeGroups(const Grouper& other, const uint32_t* groups, size_t n, uint32_t* ids,
                          std::string* error) {
  switch (strategy_) {
    case Strategy::kDirect:
      for (size_t i = 0; i < n; ++i) {
        const int32_t slot = other.direct_keys_[groups[i]];
        uint32_t& group = slot_group_[static_cast<size_t>(slot)];
        if (group == kNoGroup) {
          group = static_cast<uint32_t>(direct_keys_.size());
          direct_keys_.push_back(slot);
        }
        ids[i] = group;
      }
      return true;
    case Strategy::kPacked: return fixed_.MergeGroups(other.fixed_, groups, n, ids, error);
    case Strategy::kWide: return wide_->MergeGroups(*other.wide_, groups, n, ids, error);
    default: return strings_.MergeGroups(other.strings_, groups, n, ids, error);
  }
}

}  // namespace exec
}  // namespace laneql
