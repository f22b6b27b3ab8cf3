// Parser of the corpus file format; see test_file.h and tests/sql/README.md.
#include "test_file.h"

#include <cctype>
#include <set>
#include <sstream>
#include <string_view>

namespace laneql {
namespace corpus {
namespace {

// The column types an inline table may declare: those both DuckDB and laneql's column model
// have, spelled as DuckDB spells them (so expect.py can pass them to CREATE TABLE unchanged).
const std::set<std::string>& InlineTypes() {
  static const std::set<std::string> types = {
      "TINYINT",  "SMALLINT", "INTEGER", "BIGINT", "UTINYINT", "USMALLINT", "UINTEGER",
      "UBIGINT",  "FLOAT",    "DOUBLE",  "DATE",   "TIMESTAMP", "VARCHAR",  "BOOLEAN"};
  return types;
}

std::string_view Trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  return s;
}

bool IsIdentifier(std::string_view s) {
  if (s.empty() || std::isdigit(static_cast<unsigned char>(s[0]))) return false;
  for (char c : s) {
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_') return false;
  }
  return true;
}

std::vector<std::string_view> Split(std::string_view s, char separator) {
  std::vector<std::string_view> parts;
  size_t start = 0;
  while (true) {
    const size_t end = s.find(separator, start);
    if (end == std::string_view::npos) {
      parts.push_back(s.substr(start));
      return parts;
    }
    parts.push_back(s.substr(start, end - start));
    start = end + 1;
  }
}

// A record's type list: comma-separated, but not inside parentheses (DECIMAL(15,2)).
std::vector<std::string_view> SplitTypes(std::string_view s) {
  std::vector<std::string_view> parts;
  size_t start = 0;
  int depth = 0;
  for (size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '(') ++depth;
    if (s[i] == ')') --depth;
    if (s[i] == ',' && depth == 0) {
      parts.push_back(s.substr(start, i - start));
      start = i + 1;
    }
  }
  parts.push_back(s.substr(start));
  return parts;
}

// A result type name: an identifier, or DECIMAL(p,s).
bool IsTypeName(std::string_view s) {
  // A list: its element's name and "[]" (DOUBLE[], DECIMAL(9,2)[]).
  if (s.size() > 2 && s.substr(s.size() - 2) == "[]") s.remove_suffix(2);
  if (IsIdentifier(s)) return true;
  const std::string_view head = "DECIMAL(";
  if (s.substr(0, head.size()) != head || s.back() != ')') return false;
  const std::string_view inner = s.substr(head.size(), s.size() - head.size() - 1);
  const size_t comma = inner.find(',');
  if (comma == std::string_view::npos || comma == 0 || comma + 1 == inner.size()) return false;
  for (size_t i = 0; i < inner.size(); ++i) {
    if (i != comma && !std::isdigit(static_cast<unsigned char>(inner[i]))) return false;
  }
  return true;
}

// Space-separated words of a directive line.
std::vector<std::string_view> Words(std::string_view s) {
  std::vector<std::string_view> words;
  for (std::string_view part : Split(s, ' ')) {
    if (!Trim(part).empty()) words.push_back(Trim(part));
  }
  return words;
}

bool ParseUnsigned(std::string_view text, uint64_t* out) {
  if (text.empty() || text.size() > 19) return false;
  uint64_t value = 0;
  for (char c : text) {
    if (c < '0' || c > '9') return false;
    value = value * 10 + static_cast<uint64_t>(c - '0');
  }
  *out = value;
  return true;
}

class Parser {
 public:
  Parser(const std::string& path, const std::string& text, TestFile* out)
      : path_(path), out_(out) {
    std::istringstream stream(text);
    std::string line;
    while (std::getline(stream, line)) {
      if (!line.empty() && line.back() == '\r') line.pop_back();
      lines_.push_back(line);
    }
  }

  bool Parse(std::string* error) {
    out_->path = path_;
    while (next_ < lines_.size()) {
      const std::string_view line = lines_[next_];
      if (Trim(line).empty() || line[0] == '#') {
        ++next_;
        continue;
      }
      const std::vector<std::string_view> words = Words(line);
      bool ok;
      if (words[0] == "table") {
        ok = ParseTable(error);
      } else if (words[0] == "hits") {
        ok = ParseHits(words, error);
      } else if (words[0] == "query" || words[0] == "error") {
        ok = ParseRecord(words, error);
      } else {
        ok = Fail(next_, "unknown directive '" + std::string(words[0]) +
                             "' (expected table, hits, query or error)",
                  error);
      }
      if (!ok) return false;
    }
    if (out_->records.empty()) {
      *error = path_ + ": the file has no records";
      return false;
    }
    return true;
  }

 private:
  bool Fail(size_t index, const std::string& message, std::string* error) const {
    *error = path_ + ":" + std::to_string(index + 1) + ": " + message;
    return false;
  }

  bool AtBlockEnd() const { return next_ >= lines_.size() || Trim(lines_[next_]).empty(); }

  bool ClaimTableName(const std::string& name, size_t index, std::string* error) {
    std::string folded = name;
    for (char& c : folded) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    if (!table_names_.insert(folded).second) {
      return Fail(index, "table '" + name + "' is declared twice", error);
    }
    return true;
  }

  // table name(col TYPE, ...) then rows until a blank line.
  bool ParseTable(std::string* error) {
    const size_t header = next_++;
    std::string_view rest = Trim(std::string_view(lines_[header]).substr(5));
    const size_t open = rest.find('(');
    if (open == std::string_view::npos || rest.back() != ')') {
      return Fail(header, "expected 'table name(column TYPE, ...)'", error);
    }
    InlineTable table;
    table.line = static_cast<int>(header + 1);
    table.name = std::string(Trim(rest.substr(0, open)));
    if (!IsIdentifier(table.name)) {
      return Fail(header, "bad table name '" + table.name + "'", error);
    }
    if (!ClaimTableName(table.name, header, error)) return false;
    for (std::string_view spec : Split(rest.substr(open + 1, rest.size() - open - 2), ',')) {
      const std::vector<std::string_view> parts = Words(spec);
      if (parts.size() != 2 || !IsIdentifier(parts[0])) {
        return Fail(header, "bad column '" + std::string(Trim(spec)) +
                                "', expected 'name TYPE'", error);
      }
      if (InlineTypes().count(std::string(parts[1])) == 0) {
        return Fail(header, "unsupported column type '" + std::string(parts[1]) + "'", error);
      }
      table.columns.push_back({std::string(parts[0]), std::string(parts[1])});
    }
    while (!AtBlockEnd()) {
      const std::vector<std::string_view> values = Split(lines_[next_], '|');
      if (values.size() != table.columns.size()) {
        return Fail(next_, "row has " + std::to_string(values.size()) + " values, table '" +
                               table.name + "' has " + std::to_string(table.columns.size()) +
                               " columns",
                    error);
      }
      std::vector<std::optional<std::string>> row;
      for (std::string_view value : values) {
        value = Trim(value);
        if (value == kNullText) {
          row.push_back(std::nullopt);
        } else if (value == kEmptyText) {
          row.push_back(std::string());
        } else if (value.empty()) {
          return Fail(next_, "empty value: write NULL or (empty)", error);
        } else {
          row.push_back(std::string(value));
        }
      }
      table.rows.push_back(std::move(row));
      table.row_lines.push_back(static_cast<int>(next_ + 1));
      ++next_;
    }
    out_->tables.push_back(std::move(table));
    return true;
  }

  // hits rows=N seed=S
  bool ParseHits(const std::vector<std::string_view>& words, std::string* error) {
    const size_t header = next_++;
    if (out_->hits) return Fail(header, "hits is declared twice", error);
    if (!ClaimTableName("hits", header, error)) return false;
    HitsTable hits;
    hits.line = static_cast<int>(header + 1);
    bool have_rows = false;
    for (size_t i = 1; i < words.size(); ++i) {
      const size_t eq = words[i].find('=');
      const std::string_view key = words[i].substr(0, eq);
      uint64_t value = 0;
      if (eq == std::string_view::npos || !ParseUnsigned(words[i].substr(eq + 1), &value)) {
        return Fail(header, "expected key=number, got '" + std::string(words[i]) + "'", error);
      }
      if (key == "rows") {
        hits.rows = value;
        have_rows = true;
      } else if (key == "seed") {
        hits.seed = value;
      } else {
        return Fail(header, "unknown hits option '" + std::string(key) + "'", error);
      }
    }
    if (!have_rows) return Fail(header, "hits needs rows=N", error);
    out_->hits = hits;
    return true;
  }

  // query ordered|unordered [tableorder] [TYPE,TYPE...] / error [unsupported], SQL, ----, expected lines.
  bool ParseRecord(const std::vector<std::string_view>& words, std::string* error) {
    const size_t header = next_++;
    Record record;
    record.line = static_cast<int>(header + 1);
    if (words[0] == "query") {
      record.kind = RecordKind::kQuery;
      // `tableorder` (the answer follows the tables' rows as written) matters to expect.py only.
      const size_t flags = words.size() > 2 && words[2] == "tableorder" ? 1 : 0;
      if (words.size() < 2 || words.size() > 3 + flags ||
          (words[1] != "ordered" && words[1] != "unordered")) {
        return Fail(header, "expected 'query ordered|unordered [tableorder] [TYPE,...]'", error);
      }
      record.ordered = words[1] == "ordered";
      if (words.size() == 3 + flags) {
        for (std::string_view type : SplitTypes(words[2 + flags])) {
          if (!IsTypeName(type)) {
            return Fail(header, "bad type name '" + std::string(type) + "'", error);
          }
          record.types.push_back(std::string(type));
        }
      }
    } else {
      record.kind = RecordKind::kError;
      if (words.size() > 2 || (words.size() == 2 && words[1] != "unsupported")) {
        return Fail(header, "expected 'error' or 'error unsupported'", error);
      }
    }
    while (!AtBlockEnd() && lines_[next_] != "----") {
      if (!record.sql.empty()) record.sql += '\n';
      record.sql += lines_[next_++];
    }
    if (record.sql.empty()) return Fail(header, "record has no SQL", error);
    if (AtBlockEnd()) return Fail(header, "record has no '----' line after its SQL", error);
    ++next_;  // ----
    while (!AtBlockEnd()) record.expected.push_back(lines_[next_++]);
    if (record.kind == RecordKind::kError && record.expected.empty()) {
      return Fail(header, "error record has no expected message", error);
    }
    out_->records.push_back(std::move(record));
    return true;
  }

  std::string path_;
  TestFile* out_;
  std::vector<std::string> lines_;
  size_t next_ = 0;
  std::set<std::string> table_names_;
};

}  // namespace

bool ParseTestFile(const std::string& path, const std::string& text, TestFile* out,
                   std::string* error) {
  *out = TestFile();
  return Parser(path, text, out).Parse(error);
}

}  // namespace corpus
}  // namespace laneql
