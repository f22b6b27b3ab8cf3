// TableFileFormatOf (laneql/file_readers.h): the one choice of reader by a path's extension that
// both `FROM 'path'` in SQL and the CLI's `--table NAME=PATH` make.
#include "laneql/file_readers.h"

#include <gtest/gtest.h>

#include <string>

namespace laneql {
namespace {

bool StubReader(const std::string&, Table*, std::string* error) {
  *error = "stub";
  return false;
}

TEST(TableFileFormat, BuiltInExtensionsInAnyLetterCase) {
  for (const char* path : {"hits.csv", "HITS.CSV", "dir.d/x.Csv", "notes.txt", "a/b.TXT"}) {
    EXPECT_EQ(TableFileFormatOf(path), TableFileFormat::kCsv) << path;
  }
  for (const char* path : {"hits.tsv", "HITS.TSV", "x.tab", "x.TaB"}) {
    EXPECT_EQ(TableFileFormatOf(path), TableFileFormat::kTsv) << path;
  }
  for (const char* path : {"hits.laneql", "/data/HITS.LANEQL", "x.LaneQL"}) {
    EXPECT_EQ(TableFileFormatOf(path), TableFileFormat::kLaneql) << path;
  }
}

TEST(TableFileFormat, OnlyTheLastExtensionCounts) {
  EXPECT_EQ(TableFileFormatOf("hits.csv.gz"), TableFileFormat::kUnknown);
  EXPECT_EQ(TableFileFormatOf("hits.laneql.csv"), TableFileFormat::kCsv);
  EXPECT_EQ(TableFileFormatOf("hits.csv.tsv"), TableFileFormat::kTsv);
  EXPECT_EQ(TableFileFormatOf("csv"), TableFileFormat::kUnknown);  // a name, not an extension
  EXPECT_EQ(TableFileFormatOf("hitscsv"), TableFileFormat::kUnknown);
  EXPECT_EQ(TableFileFormatOf(""), TableFileFormat::kUnknown);
}

TEST(TableFileFormat, RegisteredReadersServeTheirExtensionButNotTheBuiltInOnes) {
  // .parquet is a registered reader's extension: laneql_parquet's InstallParquetReader, which
  // this test program never calls, so here it is no format. A stub takes a made-up extension.
  EXPECT_EQ(TableFileFormatOf("hits.parquet"), TableFileFormat::kUnknown);
  EXPECT_EQ(TableFileFormatOf("x.format-test"), TableFileFormat::kUnknown);
  RegisterTableFileReader(".Format-Test", &StubReader);
  EXPECT_EQ(TableFileFormatOf("x.format-test"), TableFileFormat::kRegistered);
  EXPECT_EQ(TableFileFormatOf("X.FORMAT-TEST"), TableFileFormat::kRegistered);
  EXPECT_EQ(FindTableFileReader("X.FORMAT-TEST"), &StubReader);
  EXPECT_EQ(TableFileFormatOf("x.xlsx"), TableFileFormat::kUnknown);
  EXPECT_EQ(TableFileFormatOf("hits.parquet"), TableFileFormat::kUnknown);

  // A reader registered for a built-in extension does not take the file from the built-in one.
  RegisterTableFileReader(".tab", &StubReader);
  EXPECT_EQ(TableFileFormatOf("x.tab"), TableFileFormat::kTsv);
}

}  // namespace
}  // namespace laneql
