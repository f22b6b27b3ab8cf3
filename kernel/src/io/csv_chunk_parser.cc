// Per-chunk CSV parsing into typed column parts, and joining the parts (csv_chunk_parser.h).
#include "src/io/csv_chunk_parser.h"

#include <cstring>
#include <limits>

#include "laneql/aligned_buffer.h"
#include "laneql/bitmask.h"
#include "src/common/decimal.h"
#include "src/common/interval_text.h"
#include "src/io/csv_field_parse.h"
#include "src/io/csv_records.h"

namespace laneql {
namespace csv {
namespace {

// How often (in records) a chunk checks whether an earlier chunk has already failed.
constexpr size_t kStopCheckInterval = 1024;
// Longest value quoted in full in a message.
constexpr size_t kMaxQuotedValue = 60;

template <class T>
void PushFixed(ColumnPart* part, T value) {
  const size_t at = part->fixed.size();
  part->fixed.resize(at + sizeof(T));
  std::memcpy(part->fixed.data() + at, &value, sizeof(T));
}

void PushNull(TypeId type, ColumnPart* part) {
  if (IsString(type)) {
    part->ends.push_back(static_cast<int64_t>(part->bytes.size()));
  } else {
    part->fixed.resize(part->fixed.size() + TypeByteWidth(type), 0);
  }
  part->valid.push_back(0);
  ++part->nulls;
}

// Removes the newest row (a row that turned out bad after some of its columns were appended).
void PopRow(TypeId type, ColumnPart* part) {
  if (IsString(type)) {
    part->ends.pop_back();
    part->bytes.resize(part->ends.empty() ? 0 : static_cast<size_t>(part->ends.back()));
  } else {
    part->fixed.resize(part->fixed.size() - TypeByteWidth(type));
  }
  if (part->valid.back() == 0) --part->nulls;
  part->valid.pop_back();
}

std::string Quoted(std::string_view value) {
  if (value.size() <= kMaxQuotedValue) return "'" + std::string(value) + "'";
  return "'" + std::string(value.substr(0, kMaxQuotedValue)) + "...' (" +
         std::to_string(value.size()) + " bytes)";
}

// Appends a non-NULL value; false with *problem when it does not parse or is out of range.
bool PushValue(TypeId type, bool inferred, bool may_have_non_ascii, std::string_view value,
               ColumnPart* part, std::string* problem) {
  ParseStatus status = ParseStatus::kOk;
  if (IsDecimal(type)) {  // too many digits is a syntax problem here, as DuckDB reports it
    Int128 v = 0;
    if (decimal::ParseDecimal(value, DecimalPrecision(type), DecimalScale(type), &v)) {
      PushFixed(part, v);
    } else {
      status = ParseStatus::kSyntax;
    }
  } else switch (type) {
    case TypeId::kInt8:
    case TypeId::kInt16:
    case TypeId::kInt32:
    case TypeId::kInt64: {
      const size_t bits = 8 * TypeByteWidth(type);
      const int64_t max = bits == 64 ? std::numeric_limits<int64_t>::max()
                                     : (int64_t{1} << (bits - 1)) - 1;
      int64_t v = 0;
      status = ParseSigned(value, -max - 1, max, &v);
      if (status != ParseStatus::kOk) break;
      if (bits == 8) PushFixed(part, static_cast<int8_t>(v));
      if (bits == 16) PushFixed(part, static_cast<int16_t>(v));
      if (bits == 32) PushFixed(part, static_cast<int32_t>(v));
      if (bits == 64) PushFixed(part, v);
      break;
    }
    case TypeId::kUInt8:
    case TypeId::kUInt16:
    case TypeId::kUInt32:
    case TypeId::kUInt64: {
      const size_t bits = 8 * TypeByteWidth(type);
      const uint64_t max = bits == 64 ? std::numeric_limits<uint64_t>::max()
                                      : (uint64_t{1} << bits) - 1;
      uint64_t v = 0;
      status = ParseUnsigned(value, max, &v);
      if (status != ParseStatus::kOk) break;
      if (bits == 8) PushFixed(part, static_cast<uint8_t>(v));
      if (bits == 16) PushFixed(part, static_cast<uint16_t>(v));
      if (bits == 32) PushFixed(part, static_cast<uint32_t>(v));
      if (bits == 64) PushFixed(part, v);
      break;
    }
    case TypeId::kInt128: {
      Int128 v = 0;
      status = ParseInt128(value, &v);
      if (status == ParseStatus::kOk) PushFixed(part, v);
      break;
    }
    case TypeId::kFloat32: {
      float v = 0;
      status = ParseFloat(value, &v);
      if (status == ParseStatus::kOk) PushFixed(part, v);
      break;
    }
    case TypeId::kFloat64: {
      double v = 0;
      status = ParseDouble(value, &v);
      if (status == ParseStatus::kOk) PushFixed(part, v);
      break;
    }
    case TypeId::kBool: {
      bool v = false;
      status = ParseBool(value, /*strict=*/inferred, &v);
      if (status == ParseStatus::kOk) PushFixed(part, static_cast<uint8_t>(v ? 1 : 0));
      break;
    }
    case TypeId::kDate32: {
      int32_t v = 0;
      status = ParseDate(value, &v);
      if (status == ParseStatus::kOk) PushFixed(part, v);
      break;
    }
    case TypeId::kTimestampSeconds:
    case TypeId::kTimestampMicros: {
      int64_t v = 0;
      status = type == TypeId::kTimestampSeconds ? ParseTimestampSeconds(value, &v)
                                                 : ParseTimestampMicros(value, &v);
      if (status == ParseStatus::kOk) PushFixed(part, v);
      break;
    }
    case TypeId::kTime: {
      int64_t v = 0;
      status = civil::ParseTime(std::string(value), &v) ? ParseStatus::kOk : ParseStatus::kSyntax;
      if (status == ParseStatus::kOk) PushFixed(part, v);
      break;
    }
    case TypeId::kInterval: {
      Interval v;
      status = civil::ParseInterval(std::string(value), &v) ? ParseStatus::kOk : ParseStatus::kSyntax;
      if (status == ParseStatus::kOk) PushFixed(part, PackInterval(v));
      break;
    }
    case TypeId::kString:
    case TypeId::kLargeString:
      if (may_have_non_ascii && !IsValidUtf8(value)) {
        *problem = "invalid UTF-8 in a VARCHAR value";
        return false;
      }
      part->bytes.insert(part->bytes.end(), value.begin(), value.end());
      part->ends.push_back(static_cast<int64_t>(part->bytes.size()));
      break;
  }
  if (status == ParseStatus::kSyntax) {
    *problem = Quoted(value) + " is not a valid " + SqlTypeName(type);
    return false;
  }
  if (status == ParseStatus::kOutOfRange) {
    *problem = Quoted(value) + " is out of range for " + SqlTypeName(type);
    return false;
  }
  part->valid.push_back(1);
  return true;
}

class ChunkParser {
 public:
  ChunkParser(const ParseSettings& settings, ChunkResult* out) : s_(settings), out_(out) {
    out_->columns.assign(s_.columns.size(), ColumnPart{});
  }

  // Parses one record; false if it was bad (recorded in out_).
  bool ParseRecord(const Record& record) {
    const size_t n = s_.columns.size();
    const size_t fields = record.fields.size();
    // An empty line is no record when rows have several fields.
    if (fields == 1 && n > 1 && record.fields[0].begin == record.fields[0].end) return true;
    if (fields != n) {
      const size_t at = fields > n ? record.fields[n].begin : record.fields.back().end;
      return Bad(at, "expected " + std::to_string(n) + " field" + (n == 1 ? "" : "s") +
                         ", found " + std::to_string(fields));
    }
    for (size_t c = 0; c < n; ++c) {
      const FieldSpan span = record.fields[c];
      const std::string_view raw = s_.text.substr(span.begin, span.end - span.begin);
      std::string_view value;
      bool quoted = false;
      std::string problem;
      const TypeId type = s_.columns[c].type;
      bool ok = UnquoteField(raw, s_.quote, record.unterminated && c + 1 == n,
                             span.has_quote, &scratch_, &value, &quoted, &problem);
      if (ok) {
        const bool null = quoted ? (value.empty() && !IsString(type))
                                 : (value.empty() || (!s_.null_string.empty() &&
                                                      value == s_.null_string));
        if (null) {
          PushNull(type, &out_->columns[c]);
        } else {
          ok = PushValue(type, s_.types_inferred, record.may_have_non_ascii, value,
                         &out_->columns[c], &problem);
          if (!ok && s_.types_inferred && problem.find("UTF-8") == std::string::npos) {
            problem += " (the column's type was inferred from the first " +
                       std::to_string(s_.sampled_rows) +
                       " rows; give an explicit schema to read it otherwise)";
          }
        }
      }
      if (!ok) {
        for (size_t k = 0; k < c; ++k) PopRow(s_.columns[k].type, &out_->columns[k]);
        return Bad(span.begin, "field " + std::to_string(c + 1) + " (\"" + s_.columns[c].name +
                                   "\"): " + problem);
      }
    }
    ++out_->rows;
    return true;
  }

 private:
  bool Bad(size_t offset, std::string problem) {
    ++out_->bad_rows;
    if (!out_->has_bad_row) {
      out_->has_bad_row = true;
      out_->bad_offset = offset;
      out_->bad_problem = std::move(problem);
    }
    return false;
  }

  const ParseSettings& s_;
  ChunkResult* out_;
  std::string scratch_;
};

}  // namespace

void ParseChunk(const ParseSettings& settings, size_t begin, size_t end, size_t chunk_index,
                std::atomic<size_t>* first_failed_chunk, ChunkResult* out) {
  ChunkParser parser(settings, out);
  RecordSplitter splitter(settings.text, settings.delimiter, settings.quote, begin, end);
  Record record;
  size_t records = 0;
  size_t reported = begin;  // progress is reported up to here
  while (splitter.Next(&record)) {
    if (!parser.ParseRecord(record) && !settings.skip_bad_rows) {
      size_t expected = first_failed_chunk->load();
      while (chunk_index < expected &&
             !first_failed_chunk->compare_exchange_weak(expected, chunk_index)) {
      }
      return;
    }
    if (++records % kStopCheckInterval != 0) continue;
    if (!settings.skip_bad_rows && first_failed_chunk->load(std::memory_order_relaxed) < chunk_index) {
      return;
    }
    if (settings.progress && settings.parsed != nullptr && settings.parsed_rows != nullptr) {
      const size_t done = settings.parsed->fetch_add(record.end - reported) + record.end - reported;
      const size_t rows = settings.parsed_rows->fetch_add(kStopCheckInterval) + kStopCheckInterval;
      reported = record.end;
      settings.progress(done, settings.text.size(), rows);
    }
  }
}

bool JoinParts(const std::vector<ChunkResult>& chunks, size_t c, TypeId type, Column* out,
               std::string* error) {
  size_t rows = 0, nulls = 0, bytes = 0;
  for (const ChunkResult& chunk : chunks) {
    const ColumnPart& part = chunk.columns[c];
    rows += part.valid.size();
    nulls += part.nulls;
    bytes += part.bytes.size();
  }
  AlignedBuffer values, offsets, validity;
  if (nulls != 0) {
    if (!validity.Resize(BitmaskWords(rows) * sizeof(uint64_t), error)) return false;
    uint64_t* words = validity.As<uint64_t>();
    size_t row = 0;
    for (const ChunkResult& chunk : chunks) {
      for (uint8_t v : chunk.columns[c].valid) {
        if (v != 0) BitmaskSet(words, row);
        ++row;
      }
    }
  }
  if (IsString(type)) {
    if (bytes > static_cast<size_t>(std::numeric_limits<int32_t>::max())) {
      type = TypeId::kLargeString;
    }
    const bool large = type == TypeId::kLargeString;
    if (!values.ResizeForOverwrite(bytes, error) ||
        !offsets.ResizeForOverwrite((rows + 1) * (large ? 8 : 4), error)) {
      return false;
    }
    size_t byte_at = 0, row = 0;
    const auto put_offset = [&](int64_t v) {
      if (large) {
        offsets.As<int64_t>()[row] = v;
      } else {
        offsets.As<int32_t>()[row] = static_cast<int32_t>(v);
      }
    };
    put_offset(0);
    for (const ChunkResult& chunk : chunks) {
      const ColumnPart& part = chunk.columns[c];
      if (!part.bytes.empty()) std::memcpy(values.data() + byte_at, part.bytes.data(), part.bytes.size());
      for (int64_t e : part.ends) {
        ++row;
        put_offset(static_cast<int64_t>(byte_at) + e);
      }
      byte_at += part.bytes.size();
    }
  } else {
    const size_t width = TypeByteWidth(type);
    if (!values.ResizeForOverwrite(rows * width, error)) return false;
    size_t at = 0;
    for (const ChunkResult& chunk : chunks) {
      const ColumnPart& part = chunk.columns[c];
      if (!part.fixed.empty()) std::memcpy(values.data() + at, part.fixed.data(), part.fixed.size());
      at += part.fixed.size();
    }
  }
  return Column::FromBuffers(type, rows, std::move(values), std::move(offsets),
                             std::move(validity), out, error);
}

}  // namespace csv
}  // namespace laneql
