// COPY (SELECT ...) TO 'path' (options): the query's result written as CSV / TSV or as a
// .laneql table file.
#include <cstdint>
#include <string>
#include <utility>

#include "laneql/csv.h"
#include "laneql/file_readers.h"
#include "laneql/table_file.h"
#include "src/exec/file_tables.h"
#include "src/common/ascii.h"

namespace laneql {
namespace exec {
namespace {

using ascii::Lower;

Result ErrorAt(sql::SourcePos pos, const std::string& what) {
  return Result::Error("binder error at line " + std::to_string(pos.line) + ", column " +
                           std::to_string(pos.column) + ": " + what,
                       pos.line, pos.column);
}

// The text of an option's value: a string literal, a bare word (FORMAT csv) or TRUE/FALSE.
bool ValueText(const sql::TableOption& option, std::string* text) {
  if (!option.value) return false;
  const sql::Expr& value = *option.value;
  if (value.kind == sql::ExprKind::kStringLiteral || value.kind == sql::ExprKind::kIntegerLiteral) {
    *text = value.text;
    return true;
  }
  if (value.kind == sql::ExprKind::kBooleanLiteral) {
    *text = value.bool_value ? "true" : "false";
    return true;
  }
  return false;
}

}  // namespace

Result CopyResultToFile(const sql::CopyStatement& copy, Result result) {
  if (!result.ok()) return result;
  // The extensions name the formats as for reading the file back; any other is CSV.
  const TableFileFormat by_extension = TableFileFormatOf(copy.path);
  std::string format = by_extension == TableFileFormat::kLaneql ? "laneql" : "csv";
  CsvWriteOptions csv;
  if (by_extension == TableFileFormat::kTsv) csv.delimiter = '\t';
  for (const sql::TableOption& option : copy.options) {
    const std::string name = Lower(option.name);
    std::string text;
    const bool has_text = ValueText(option, &text);
    if (name == "format") {
      format = Lower(text);
      if (format == "tsv") {
        format = "csv";
        csv.delimiter = '\t';
      }
      if (format != "csv" && format != "laneql") {
        return ErrorAt(option.pos, "COPY writes FORMAT csv, tsv or laneql, not '" + text + "'");
      }
    } else if (name == "delimiter" || name == "delim" || name == "sep") {
      if (text == "\\t") text = "\t";
      if (!has_text || text.size() != 1) {
        return ErrorAt(option.pos, "COPY option " + option.name + " takes one character");
      }
      csv.delimiter = text[0];
    } else if (name == "quote") {
      if (!has_text || text.size() != 1) {
        return ErrorAt(option.pos, "COPY option QUOTE takes one character");
      }
      csv.quote = text[0];
    } else if (name == "header") {
      const std::string value = has_text ? Lower(text) : "true";
      if (value != "true" && value != "false" && value != "1" && value != "0") {
        return ErrorAt(option.pos, "COPY option HEADER takes true or false");
      }
      csv.header = value == "true" || value == "1";
    } else if (name == "null" || name == "nullstr") {
      if (!has_text) return ErrorAt(option.pos, "COPY option NULL takes a string");
      csv.null_string = text;
    } else {
      return ErrorAt(option.pos, "unknown COPY option " + option.name +
                                     ": expected FORMAT, DELIMITER, HEADER, NULL or QUOTE");
    }
  }
  const int64_t rows = static_cast<int64_t>(result.num_rows());
  std::string error;
  if (format == "laneql") {
    Table table;
    if (!result.MoveToTable(&table, &error) || !WriteTableFile(table, copy.path, &error)) {
      return Result::Error(error, copy.path_pos.line, copy.path_pos.column);
    }
  } else if (!WriteCsvFile(result, copy.path, csv, &error)) {
    return Result::Error(error, copy.path_pos.line, copy.path_pos.column);
  }
  Column count(TypeId::kInt64);
  Result answer;
  if (!count.Append<int64_t>(rows, &error) ||
      !answer.AddColumn("Count", std::move(count), &error)) {
    return Result::Error(error);
  }
  return answer;
}

}  // namespace exec
}  // namespace laneql
