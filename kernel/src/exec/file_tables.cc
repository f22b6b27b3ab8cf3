// Reading tables from files named in SQL, and COPY ... TO: option parsing and reader choice.
#include "src/exec/file_tables.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <string>
#include <utility>

#include "laneql/csv.h"
#include "laneql/file_readers.h"
#include "laneql/table_file.h"
#include "src/common/ascii.h"

namespace laneql {
namespace exec {
namespace {

using ascii::Lower;

// Errors at a place in the SQL text: "binder error at line L, column C: <what>".
bool Fail(sql::SourcePos pos, const std::string& what, plan::BindError* error) {
  *error = plan::BindError{"binder error at line " + std::to_string(pos.line) + ", column " +
                               std::to_string(pos.column) + ": " + what,
                           pos.line, pos.column};
  return false;
}

// A reader's own message (it names the file, line and column in the file) at the place in the
// query where the file is named.
bool FailReading(sql::SourcePos pos, const std::string& message, plan::BindError* error) {
  *error = plan::BindError{message, pos.line, pos.column};
  return false;
}

// The literal values options take.
bool OptionString(const sql::TableOption& option, std::string* value, plan::BindError* error) {
  if (!option.value || option.value->kind != sql::ExprKind::kStringLiteral) {
    return Fail(option.pos,
                "option " + option.name + " takes a string, e.g. " + option.name + " => 'x'",
                error);
  }
  *value = option.value->text;
  return true;
}

bool OptionBool(const sql::TableOption& option, bool* value, plan::BindError* error) {
  if (!option.value) {  // COPY's bare HEADER
    *value = true;
    return true;
  }
  const sql::Expr& expr = *option.value;
  if (expr.kind == sql::ExprKind::kBooleanLiteral) {
    *value = expr.bool_value;
    return true;
  }
  if (expr.kind == sql::ExprKind::kIntegerLiteral && (expr.text == "0" || expr.text == "1")) {
    *value = expr.text == "1";
    return true;
  }
  if (expr.kind == sql::ExprKind::kStringLiteral) {
    const std::string lower = Lower(expr.text);
    if (lower == "true" || lower == "false") {
      *value = lower == "true";
      return true;
    }
  }
  return Fail(option.pos, "option " + option.name + " takes true or false", error);
}

bool OptionCount(const sql::TableOption& option, size_t* value, plan::BindError* error) {
  if (!option.value || option.value->kind != sql::ExprKind::kIntegerLiteral ||
      option.value->text.size() > 12) {
    return Fail(option.pos, "option " + option.name + " takes a positive integer", error);
  }
  *value = static_cast<size_t>(std::stoll(option.value->text));
  if (*value == 0) return Fail(option.pos, "option " + option.name + " must be above 0", error);
  return true;
}

// One character; '\t' as written in SQL (backslash, t) means a tab, as DuckDB reads it.
bool OptionChar(const sql::TableOption& option, char* value, plan::BindError* error) {
  std::string text;
  if (!OptionString(option, &text, error)) return false;
  if (text == "\\t") text = "\t";
  if (text.size() != 1) {
    return Fail(option.pos,
                "option " + option.name + " takes one character, got '" + text + "'", error);
  }
  *value = text[0];
  return true;
}

bool ReadWholeFile(const std::string& path, std::string* text, std::string* error) {
  FILE* file = std::fopen(path.c_str(), "rb");
  if (file == nullptr) {
    *error = "cannot open '" + path + "': " + std::strerror(errno);
    return false;
  }
  char buffer[65536];
  size_t got;
  while ((got = std::fread(buffer, 1, sizeof(buffer), file)) > 0) text->append(buffer, got);
  const bool failed = std::ferror(file) != 0;
  std::fclose(file);
  if (failed) *error = "cannot read '" + path + "'";
  return !failed;
}

// read_csv's named options, DuckDB's spellings (plus schema => 'create.sql', a file holding a
// CREATE TABLE statement whose columns give the names and types).
bool CsvOptionsFrom(const sql::TableRef& ref, CsvReadOptions* options, plan::BindError* error) {
  for (const sql::TableOption& option : ref.options) {
    const std::string name = Lower(option.name);
    if (name == "delim" || name == "sep" || name == "delimiter") {
      if (!OptionChar(option, &options->delimiter, error)) return false;
    } else if (name == "quote") {
      if (!OptionChar(option, &options->quote, error)) return false;
    } else if (name == "escape") {
      if (!OptionChar(option, &options->escape, error)) return false;
    } else if (name == "header") {
      bool header = false;
      if (!OptionBool(option, &header, error)) return false;
      options->header = header ? CsvReadOptions::Header::kYes : CsvReadOptions::Header::kNo;
    } else if (name == "nullstr" || name == "null") {
      if (!OptionString(option, &options->null_string, error)) return false;
    } else if (name == "sample_size") {
      if (!OptionCount(option, &options->sample_rows, error)) return false;
    } else if (name == "ignore_errors") {
      if (!OptionBool(option, &options->skip_bad_rows, error)) return false;
    } else if (name == "auto_detect") {
      bool ignored = false;
      if (!OptionBool(option, &ignored, error)) return false;
    } else if (name == "schema") {
      std::string path, sql, message, table_name;
      if (!OptionString(option, &path, error)) return false;
      if (!ReadWholeFile(path, &sql, &message)) return Fail(option.pos, message, error);
      if (!ParseCreateTable(sql, &table_name, &options->schema, &message)) {
        return Fail(option.pos, path + ": " + message, error);
      }
    } else {
      return Fail(option.pos,
                  "unknown option " + option.name + " of " + ref.function +
                      "(): expected delim, quote, escape, header, nullstr, sample_size, "
                      "ignore_errors, auto_detect or schema",
                  error);
    }
  }
  return true;
}

bool ReadCsvTable(const sql::TableRef& ref, CsvReadOptions options, int threads, Table* table,
                  plan::BindError* error) {
  options.threads = threads;
  std::string message;
  CsvReadStats stats;
  if (!ReadCsvFile(ref.path, options, table, &stats, &message)) {
    return FailReading(ref.pos, message, error);
  }
  return true;
}

bool ReadWithRegistry(const sql::TableRef& ref, std::string_view as_path, Table* table,
                      plan::BindError* error) {
  const TableFileReader reader = FindTableFileReader(as_path);
  if (reader == nullptr) return false;
  std::string message;
  if (!reader(ref.path, table, &message)) return FailReading(ref.pos, message, error);
  return true;
}

}  // namespace

bool LoadFileTable(const sql::TableRef& ref, int threads, std::shared_ptr<const Table>* out,
                   plan::BindError* error) {
  Table table;
  std::string message;
  if (ref.kind == sql::TableRefKind::kFunction) {
    if (ref.function == "read_csv" || ref.function == "read_csv_auto") {
      CsvReadOptions options;
      if (TableFileFormatOf(ref.path) == TableFileFormat::kTsv) options.delimiter = '\t';
      if (!CsvOptionsFrom(ref, &options, error) ||
          !ReadCsvTable(ref, std::move(options), threads, &table, error)) {
        return false;
      }
    } else if (ref.function == "read_parquet") {
      if (!ref.options.empty()) {
        return Fail(ref.options[0].pos, "read_parquet() takes no options", error);
      }
      *error = plan::BindError{};
      if (!ReadWithRegistry(ref, "x.parquet", &table, error)) {
        if (!error->message.empty()) return false;
        return Fail(ref.pos,
                    "read_parquet: Parquet is not available in this build (see README, Parquet)",
                    error);
      }
    } else {
      return Fail(ref.pos,
                  "unknown table function " + ref.function +
                      "(): expected read_csv, read_csv_auto or read_parquet",
                  error);
    }
  } else {
    const TableFileFormat format = TableFileFormatOf(ref.path);
    switch (format) {
      case TableFileFormat::kCsv:
      case TableFileFormat::kTsv: {
        CsvReadOptions options;
        if (format == TableFileFormat::kTsv) options.delimiter = '\t';
        if (!ReadCsvTable(ref, std::move(options), threads, &table, error)) return false;
        break;
      }
      case TableFileFormat::kLaneql:
        if (!OpenTableFile(ref.path, &table, &message)) {
          return FailReading(ref.pos, message, error);
        }
        break;
      case TableFileFormat::kRegistered:
      case TableFileFormat::kUnknown:  // ReadWithRegistry leaves no message when none serves it
        *error = plan::BindError{};
        if (!ReadWithRegistry(ref, ref.path, &table, error)) {
          if (!error->message.empty()) return false;
          return Fail(ref.pos,
                      "no reader for '" + ref.path +
                          "': laneql reads .csv, .tsv, .laneql and, in builds with Parquet, "
                          ".parquet files (read_csv('" + ref.path + "') reads any text file as CSV)",
                      error);
        }
        break;
    }
  }
  *out = std::make_shared<const Table>(std::move(table));
  return true;
}

}  // namespace exec
}  // namespace laneql
