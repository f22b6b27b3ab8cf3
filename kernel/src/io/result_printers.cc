// The result printers. All of them format values through AppendValue, then apply only their
// own quoting or escaping, so the formats never disagree on how a value reads.
#include "laneql/result_printers.h"

#include <algorithm>
#include <string>
#include <string_view>
#include <vector>

#include "src/io/utf8.h"

namespace laneql {
namespace {

constexpr std::string_view kEllipsis = "\xE2\x80\xA6";  // U+2026 "…"

std::string ErrorText(const Result& result) { return "Error: " + result.error() + "\n"; }

bool IsNumeric(TypeId type) { return IsInteger(type) || IsFloat(type); }

// ------------------------------------------------------------------ aligned table

// A value as it appears in one table cell: control characters, which would break the row
// onto several lines or drive the terminal, shown as escapes (\t \r \n, others \xNN), and cut
// to `max_width` code points.
std::string TableCell(std::string text, size_t max_width) {
  const auto is_control = [](char c) {
    return static_cast<unsigned char>(c) < 0x20 || c == 0x7F;
  };
  if (std::any_of(text.begin(), text.end(), is_control)) {
    static const char kHex[] = "0123456789abcdef";
    std::string escaped;
    for (char c : text) {
      if (!is_control(c)) {
        escaped.push_back(c);
      } else if (c == '\t') {
        escaped.append("\\t");
      } else if (c == '\r') {
        escaped.append("\\r");
      } else if (c == '\n') {
        escaped.append("\\n");
      } else {
        escaped.append("\\x");
        escaped.push_back(kHex[(c >> 4) & 15]);
        escaped.push_back(kHex[c & 15]);
      }
    }
    text = std::move(escaped);
  }
  if (max_width == 0 || utf8::CountCodePoints(text) <= max_width) return text;
  size_t bytes = 0;
  for (size_t kept = 0; kept + 1 < max_width; ++kept) {
    bytes += utf8::NextUnitLength(std::string_view(text).substr(bytes));
  }
  text.resize(bytes);
  text.append(kEllipsis);
  return text;
}

struct TableColumn {
  std::vector<std::string> cells;  // header first, then the printed rows
  std::vector<size_t> widths;      // code points of each cell
  size_t width = 0;                // the widest
  bool right_aligned = false;
};

void AppendAligned(const std::string& text, size_t text_width, size_t width, bool right,
                   std::string* out) {
  const size_t pad = width - text_width;
  if (right) out->append(pad, ' ');
  out->append(text);
  if (!right) out->append(pad, ' ');
}

void AppendTableLine(const std::vector<TableColumn>& columns, size_t cell, std::string* out) {
  const size_t start = out->size();
  for (size_t c = 0; c < columns.size(); ++c) {
    out->append(c == 0 ? " " : " | ");
    const TableColumn& column = columns[c];
    AppendAligned(column.cells[cell], column.widths[cell], column.width, column.right_aligned,
                  out);
  }
  // No trailing spaces: the last column's padding is invisible anyway.
  size_t end = out->size();
  while (end > start && (*out)[end - 1] == ' ') --end;
  out->resize(end);
  out->push_back('\n');
}

}  // namespace

std::string PrintTable(const Result& result, const TableOptions& options) {
  if (!result.ok()) return ErrorText(result);
  const size_t rows = result.num_rows();
  size_t head = rows, tail = 0;
  if (options.max_rows != 0 && rows > options.max_rows) {
    head = (options.max_rows + 1) / 2;
    tail = options.max_rows / 2;
  }
  std::vector<TableColumn> columns(result.num_columns());
  for (size_t c = 0; c < columns.size(); ++c) {
    TableColumn& column = columns[c];
    column.right_aligned = IsNumeric(result.type(c));
    column.cells.push_back(TableCell(result.name(c), options.max_width));
    const auto add_row = [&](size_t row) {
      column.cells.push_back(
          TableCell(FormatValue(result.column(c), row, ValueStyle::kText), options.max_width));
    };
    for (size_t row = 0; row < head; ++row) add_row(row);
    for (size_t row = rows - tail; row < rows; ++row) add_row(row);
    for (const std::string& cell : column.cells) {
      column.widths.push_back(utf8::CountCodePoints(cell));
      column.width = std::max(column.width, column.widths.back());
    }
  }
  std::string out;
  if (!columns.empty()) {
    AppendTableLine(columns, 0, &out);
    for (size_t c = 0; c < columns.size(); ++c) {
      if (c != 0) out.push_back('+');
      out.append(columns[c].width + 2, '-');
    }
    out.push_back('\n');
    for (size_t i = 0; i < head; ++i) AppendTableLine(columns, 1 + i, &out);
    if (head + tail < rows) {
      out.append(" ").append(kEllipsis).append(" ");
      out.append(std::to_string(rows - head - tail)).append(" rows ").append(kEllipsis);
      out.push_back('\n');
    }
    for (size_t i = 0; i < tail; ++i) AppendTableLine(columns, 1 + head + i, &out);
  }
  out.append("(").append(std::to_string(rows)).append(rows == 1 ? " row)\n" : " rows)\n");
  return out;
}

// ------------------------------------------------------------------ CSV and TSV

namespace {

void AppendCsvField(std::string_view text, bool is_empty_string, std::string* out) {
  const bool quote = is_empty_string || text.find_first_of(",\"\r\n") != std::string::npos ||
                     (!text.empty() && (text.front() == ' ' || text.back() == ' '));
  if (!quote) {
    out->append(text);
    return;
  }
  out->push_back('"');
  for (char c : text) {
    if (c == '"') out->push_back('"');
    out->push_back(c);
  }
  out->push_back('"');
}

void AppendTsvField(std::string_view text, std::string* out) {
  for (char c : text) {
    switch (c) {
      case '\\': out->append("\\\\"); break;
      case '\t': out->append("\\t"); break;
      case '\n': out->append("\\n"); break;
      case '\r': out->append("\\r"); break;
      default: out->push_back(c);
    }
  }
}

}  // namespace

std::string PrintCsv(const Result& result, const DelimitedOptions& options) {
  if (!result.ok()) return ErrorText(result);
  const size_t columns = result.num_columns();
  std::string out;
  if (options.header && columns != 0) {
    for (size_t c = 0; c < columns; ++c) {
      if (c != 0) out.push_back(',');
      AppendCsvField(result.name(c), result.name(c).empty(), &out);
    }
    out.push_back('\n');
  }
  std::string value;
  for (size_t row = 0; row < result.num_rows(); ++row) {
    for (size_t c = 0; c < columns; ++c) {
      if (c != 0) out.push_back(',');
      const Column& column = result.column(c);
      if (!column.IsValid(row)) continue;  // NULL: an empty field
      value.clear();
      AppendValue(column, row, ValueStyle::kText, &value);
      AppendCsvField(value, value.empty(), &out);
    }
    out.push_back('\n');
  }
  return out;
}

std::string PrintTsv(const Result& result, const DelimitedOptions& options) {
  if (!result.ok()) return ErrorText(result);
  const size_t columns = result.num_columns();
  std::string out;
  if (options.header && columns != 0) {
    for (size_t c = 0; c < columns; ++c) {
      if (c != 0) out.push_back('\t');
      AppendTsvField(result.name(c), &out);
    }
    out.push_back('\n');
  }
  std::string value;
  for (size_t row = 0; row < result.num_rows(); ++row) {
    for (size_t c = 0; c < columns; ++c) {
      if (c != 0) out.push_back('\t');
      const Column& column = result.column(c);
      if (!column.IsValid(row)) {
        out.append("\\N");
        continue;
      }
      value.clear();
      AppendValue(column, row, ValueStyle::kText, &value);
      AppendTsvField(value, &out);
    }
    out.push_back('\n');
  }
  return out;
}

// ------------------------------------------------------------------ JSON

std::string PrintJson(const Result& result, const JsonOptions& options) {
  if (!result.ok()) {
    std::string out = "{\"error\":";
    AppendJsonString(result.error(), &out);
    out.append("}\n");
    return out;
  }
  const size_t rows = result.num_rows();
  // The keys are the same on every row: escape them once.
  std::vector<std::string> keys(result.num_columns());
  for (size_t c = 0; c < keys.size(); ++c) {
    AppendJsonString(result.name(c), &keys[c]);
    keys[c].push_back(':');
  }
  std::string out;
  if (!options.lines) out.append(rows == 0 ? "[]\n" : "[\n");
  for (size_t row = 0; row < rows; ++row) {
    if (!options.lines) out.push_back('\t');
    out.push_back('{');
    for (size_t c = 0; c < keys.size(); ++c) {
      if (c != 0) out.push_back(',');
      out.append(keys[c]);
      AppendValue(result.column(c), row, ValueStyle::kJson, &out);
    }
    out.push_back('}');
    if (!options.lines && row + 1 < rows) out.push_back(',');
    out.push_back('\n');
  }
  if (!options.lines && rows != 0) out.append("]\n");
  return out;
}

// ------------------------------------------------------------------ Markdown

namespace {

void AppendMarkdownCell(std::string_view text, std::string* out) {
  for (size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (c == '|' || c == '\\') {
      out->push_back('\\');
      out->push_back(c);
    } else if (c == '\r' || c == '\n') {
      if (c == '\r' && i + 1 < text.size() && text[i + 1] == '\n') ++i;  // CRLF: one break
      out->append("<br>");
    } else {
      out->push_back(c);
    }
  }
}

}  // namespace

std::string PrintMarkdown(const Result& result) {
  if (!result.ok()) return ErrorText(result);
  const size_t columns = result.num_columns();
  std::string out;
  if (columns == 0) return out;  // a pipe table needs at least one column
  out.push_back('|');
  for (size_t c = 0; c < columns; ++c) {
    out.push_back(' ');
    AppendMarkdownCell(result.name(c), &out);
    out.append(" |");
  }
  out.append("\n|");
  for (size_t c = 0; c < columns; ++c) {
    out.append(IsNumeric(result.type(c)) ? " ---: |" : " --- |");
  }
  out.push_back('\n');
  std::string value;
  for (size_t row = 0; row < result.num_rows(); ++row) {
    out.push_back('|');
    for (size_t c = 0; c < columns; ++c) {
      value.clear();
      AppendValue(result.column(c), row, ValueStyle::kText, &value);
      out.push_back(' ');
      AppendMarkdownCell(value, &out);
      out.append(" |");
    }
    out.push_back('\n');
  }
  return out;
}

}  // namespace laneql
