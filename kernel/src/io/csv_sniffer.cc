// Delimiter, header and type inference for the CSV reader (rules in csv_sniffer.h).
#include "src/io/csv_sniffer.h"

#include <algorithm>
#include <cctype>
#include <cstdint>
#include <deque>
#include <map>
#include <unordered_set>

#include "src/io/csv_field_parse.h"
#include "src/io/csv_records.h"
#include "src/common/ascii.h"
#include "src/common/decimal.h"

namespace laneql {
namespace csv {
namespace {

// Records the delimiter detection looks at.
constexpr size_t kDelimiterSampleRecords = 32;

// Candidate inferred types, most specific first (the first one left wins).
enum Candidate : unsigned {
  kBoolCandidate = 1,
  kBigintCandidate = 2,
  kDoubleCandidate = 4,
  kDateCandidate = 8,
  kTimestampCandidate = 16,
  kAllCandidates = 31,
};

// The candidates `value` parses as.
unsigned CandidatesOf(std::string_view value) {
  unsigned fits = 0;
  bool b;
  int64_t i;
  double d;
  int32_t day;
  if (ParseBool(value, /*strict=*/true, &b) == ParseStatus::kOk) fits |= kBoolCandidate;
  if (ParseSigned(value, INT64_MIN, INT64_MAX, &i) == ParseStatus::kOk) fits |= kBigintCandidate;
  // Only plain decimal text counts as DOUBLE when sniffing; "nan" or "inf" alone are more
  // likely words than numbers.
  if ((fits & kBigintCandidate) ||
      (!value.empty() && (std::isdigit(static_cast<unsigned char>(value.back())) ||
                          value.back() == '.') &&
       ParseDouble(value, &d) == ParseStatus::kOk)) {
    fits |= kDoubleCandidate;
  }
  // Dates and timestamps only as digits (a lone "infinity" is more likely a word).
  if (!value.empty() && std::isdigit(static_cast<unsigned char>(value[0]))) {
    if (ParseDate(value, &day) == ParseStatus::kOk) fits |= kDateCandidate;
    if (ParseTimestampMicros(value, &i) == ParseStatus::kOk) fits |= kTimestampCandidate;
  }
  return fits;
}

TypeId TypeOfCandidates(unsigned candidates, bool any_value) {
  if (!any_value) return TypeId::kString;
  if (candidates & kBoolCandidate) return TypeId::kBool;
  if (candidates & kBigintCandidate) return TypeId::kInt64;
  if (candidates & kDoubleCandidate) return TypeId::kFloat64;
  if (candidates & kDateCandidate) return TypeId::kDate32;
  if (candidates & kTimestampCandidate) return TypeId::kTimestampMicros;
  return TypeId::kString;
}

struct SampleValue {
  std::string_view text;
  bool null = false;
};

// The first records, fields unquoted (views into the text or into `owned`).
struct Sample {
  std::vector<std::vector<SampleValue>> rows;
  std::vector<size_t> row_ends;  // each record's end offset
  std::deque<std::string> owned;
};

bool IsNull(std::string_view value, bool quoted, const CsvReadOptions& options) {
  if (quoted) return false;
  return value.empty() || (!options.null_string.empty() && value == options.null_string);
}

void ReadSample(std::string_view text, char delimiter, const CsvReadOptions& options,
                size_t max_records, Sample* sample) {
  RecordSplitter splitter(text, delimiter, options.quote, 0, text.size());
  Record record;
  std::string scratch, problem;
  while (sample->rows.size() < max_records && splitter.Next(&record)) {
    std::vector<SampleValue> row;
    row.reserve(record.fields.size());
    for (size_t f = 0; f < record.fields.size(); ++f) {
      const FieldSpan span = record.fields[f];
      const std::string_view raw = text.substr(span.begin, span.end - span.begin);
      std::string_view value;
      bool quoted = false;
      SampleValue v;
      const bool last = f + 1 == record.fields.size();
      if (!UnquoteField(raw, options.quote, record.unterminated && last, span.has_quote, &scratch,
                        &value, &quoted, &problem)) {
        v.null = true;  // the parse reports it; the sample just does not learn from it
      } else if (IsNull(value, quoted, options)) {
        v.null = true;
      } else {
        if (value.data() == scratch.data()) {
          sample->owned.push_back(scratch);
          value = sample->owned.back();
        }
        v.text = value;
      }
      row.push_back(v);
    }
    // An empty line is no record when rows have several fields.
    if (row.size() == 1 && record.fields[0].begin == record.fields[0].end &&
        !sample->rows.empty() && sample->rows[0].size() > 1) {
      continue;
    }
    sample->rows.push_back(std::move(row));
    sample->row_ends.push_back(record.end);
  }
}

char DetectDelimiter(std::string_view text, const CsvReadOptions& options) {
  char best = ',';
  double best_score = 0;
  size_t best_fields = 1;
  for (char candidate : {',', '\t', '|', ';'}) {
    RecordSplitter splitter(text, candidate, options.quote, 0, text.size());
    Record record;
    std::map<size_t, size_t> count_of_field_count;
    size_t records = 0;
    while (records < kDelimiterSampleRecords && splitter.Next(&record)) {
      if (record.fields.size() == 1 && record.fields[0].begin == record.fields[0].end) {
        continue;  // an empty line (CR already dropped)
      }
      ++count_of_field_count[record.fields.size()];
      ++records;
    }
    if (records == 0) continue;
    size_t mode = 1, mode_count = 0;
    for (const auto& [fields, count] : count_of_field_count) {
      if (count > mode_count || (count == mode_count && fields > mode)) {
        mode = fields;
        mode_count = count;
      }
    }
    if (mode < 2) continue;
    const double score = static_cast<double>(mode_count) / static_cast<double>(records);
    if (score > best_score || (score == best_score && mode > best_fields)) {
      best = candidate;
      best_score = score;
      best_fields = mode;
    }
  }
  return best;
}

using ascii::EqualsIgnoreCase;
// Names are unique in a Table in ASCII case folding (Table::AddColumn).
std::string FoldCase(std::string_view s) { return ascii::Lower(s); }

// Whether a non-NULL value parses as an explicit column type.
bool FitsType(std::string_view value, TypeId type) {
  if (IsDecimal(type)) {  // syntax only, as for the integers below
    Int128 v;
    return decimal::ParseDecimal(value, kMaxDecimalPrecision, 0, &v);
  }
  switch (type) {
    case TypeId::kString:
    case TypeId::kLargeString:
      return true;
    case TypeId::kBool: {
      bool b;
      return ParseBool(value, false, &b) == ParseStatus::kOk;
    }
    case TypeId::kFloat32:
    case TypeId::kFloat64: {
      double d;
      return ParseDouble(value, &d) == ParseStatus::kOk;
    }
    case TypeId::kDate32: {
      int32_t day;
      return ParseDate(value, &day) == ParseStatus::kOk;
    }
    case TypeId::kTimestampSeconds:
    case TypeId::kTimestampMicros: {
      int64_t t;
      return ParseTimestampMicros(value, &t) != ParseStatus::kSyntax;
    }
    default: {  // integers: syntax only; a range problem is data, not a header
      Int128 v;
      return ParseInt128(value, &v) != ParseStatus::kSyntax;
    }
  }
}

// Header names: empty ones become columnN, repeats get _1, _2, ... (unique ignoring case,
// as Table requires).
std::vector<std::string> ColumnNames(const std::vector<SampleValue>* header, size_t columns) {
  std::vector<std::string> names;
  std::unordered_set<std::string> used;
  for (size_t c = 0; c < columns; ++c) {
    std::string base = "column" + std::to_string(c);
    if (header != nullptr && c < header->size() && !(*header)[c].null &&
        !(*header)[c].text.empty()) {
      base = std::string((*header)[c].text);
    }
    std::string name = base;
    for (int k = 1; used.count(FoldCase(name)) != 0; ++k) name = base + "_" + std::to_string(k);
    used.insert(FoldCase(name));
    names.push_back(std::move(name));
  }
  return names;
}

}  // namespace

bool Sniff(std::string_view text, const CsvReadOptions& options, SniffResult* out,
           std::string* error) {
  (void)error;
  *out = SniffResult{};
  out->delimiter = options.delimiter != 0 ? options.delimiter : DetectDelimiter(text, options);
  const bool explicit_schema = !options.schema.empty();
  Sample sample;
  // The first record (a header or not) plus sample_rows more, without overflowing SIZE_MAX.
  const size_t sample_records =
      explicit_schema ? 1 : options.sample_rows + (options.sample_rows < SIZE_MAX ? 1 : 0);
  ReadSample(text, out->delimiter, options, sample_records, &sample);
  if (sample.rows.empty()) {  // empty text
    out->columns = options.schema;
    return true;
  }
  const std::vector<SampleValue>& first = sample.rows[0];
  const size_t num_columns = explicit_schema ? options.schema.size() : first.size();

  if (explicit_schema) {
    out->columns = options.schema;
    if (options.header == CsvReadOptions::Header::kDetect) {
      bool all_names = first.size() == num_columns, misfit = false;
      for (size_t c = 0; c < first.size() && c < num_columns; ++c) {
        const SampleValue& v = first[c];
        if (v.null || !EqualsIgnoreCase(v.text, options.schema[c].name)) all_names = false;
        if (!v.null && !FitsType(v.text, options.schema[c].type)) misfit = true;
      }
      out->has_header = first.size() == num_columns && (all_names || misfit);
    } else {
      out->has_header = options.header == CsvReadOptions::Header::kYes;
    }
  } else {
    // Candidates from the records after the first, which joins them unless it is a header.
    std::vector<unsigned> candidates(num_columns, kAllCandidates);
    std::vector<bool> any_value(num_columns, false);
    const auto learn = [&](const std::vector<SampleValue>& row) {
      if (row.size() != num_columns) return;  // ragged: reported by the parse
      for (size_t c = 0; c < num_columns; ++c) {
        if (row[c].null) continue;
        any_value[c] = true;
        if (candidates[c] != 0) candidates[c] &= CandidatesOf(row[c].text);
      }
    };
    for (size_t r = 1; r < sample.rows.size(); ++r) learn(sample.rows[r]);
    bool header = options.header == CsvReadOptions::Header::kYes;
    if (options.header == CsvReadOptions::Header::kDetect) {
      bool misfit = false, all_varchar = true;
      for (size_t c = 0; c < num_columns; ++c) {
        const TypeId type = TypeOfCandidates(candidates[c], any_value[c]);
        if (type == TypeId::kString) continue;
        all_varchar = false;
        if (!first[c].null && (CandidatesOf(first[c].text) & candidates[c]) == 0) misfit = true;
      }
      if (misfit) {
        header = true;
      } else if (all_varchar) {
        std::unordered_set<std::string_view> seen;
        header = true;
        for (const SampleValue& v : first) {
          if (v.null || v.text.empty() || CandidatesOf(v.text) != 0 || !seen.insert(v.text).second) {
            header = false;
            break;
          }
        }
      }
    }
    if (!header) learn(first);
    out->has_header = header;
    out->types_inferred = true;
    out->sampled_rows = sample.rows.size() - (header ? 1 : 0);
    const std::vector<std::string> names = ColumnNames(header ? &first : nullptr, num_columns);
    for (size_t c = 0; c < num_columns; ++c) {
      out->columns.push_back({names[c], TypeOfCandidates(candidates[c], any_value[c])});
    }
  }
  if (out->has_header) {
    out->data_begin = std::min(text.size(), sample.row_ends[0] + 1);
  }
  return true;
}

}  // namespace csv
}  // namespace laneql
