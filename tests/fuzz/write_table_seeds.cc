// Writes the table_file fuzzer's seeds: a few small valid .laneql files made by the real writer,
// each prefixed by the fuzzer's flags byte (1 = repair checksums after mutating), into the folder
// given as the only argument. Run at fuzz time (make fuzz), so no binary file is committed.
//
//   fuzz_write_table_seeds build/fuzz/corpus/table_file
#include <cstdio>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "laneql/column.h"
#include "laneql/table.h"
#include "laneql/table_file.h"

namespace {

bool Add(laneql::Table* table, const std::string& name, laneql::Column column) {
  std::string error;
  if (!table->AddColumn(name, std::move(column), &error)) {
    std::fprintf(stderr, "write_table_seeds: %s\n", error.c_str());
    return false;
  }
  return true;
}

template <class T>
laneql::Column Fixed(laneql::TypeId type, std::vector<T> values, size_t null_every) {
  laneql::Column column(type);
  std::string error;
  for (size_t i = 0; i < values.size(); ++i) {
    if (null_every != 0 && i % null_every == 1) {
      column.AppendNull(&error);
    } else {
      column.Append<T>(values[i], &error);
    }
  }
  return column;
}

laneql::Column Strings(laneql::TypeId type, std::vector<const char*> values) {
  laneql::Column column(type);
  std::string error;
  for (const char* v : values) {
    if (v == nullptr) {
      column.AppendNull(&error);
    } else {
      column.AppendString(v, &error);
    }
  }
  return column;
}

// Writes `table` to `dir`/`name` as flags byte + file bytes.
bool WriteSeed(const laneql::Table& table, const std::string& dir, const std::string& name) {
  const std::string tmp = dir + "/" + name + ".laneql";
  std::string error;
  if (!laneql::WriteTableFile(table, tmp, &error)) {
    std::fprintf(stderr, "write_table_seeds: %s\n", error.c_str());
    return false;
  }
  std::ifstream in(tmp, std::ios::binary);
  const std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  in.close();
  std::remove(tmp.c_str());
  for (char flags : {'\x00', '\x01'}) {
    std::ofstream out(dir + "/" + name + (flags ? "-repair" : "-exact"), std::ios::binary);
    out.put(flags);
    out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
    if (!out) return false;
  }
  return true;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: %s <output folder>\n", argv[0]);
    return 2;
  }
  const std::string dir = argv[1];
  using laneql::TypeId;
  laneql::Table mixed;
  bool ok = Add(&mixed, "i", Fixed<int64_t>(TypeId::kInt64, {1, -2, 3, 4, 5}, 3)) &&
            Add(&mixed, "d", Fixed<double>(TypeId::kFloat64, {0.5, -0.0, 1e300, 2, 3}, 0)) &&
            Add(&mixed, "s", Strings(TypeId::kString, {"a", "", "Яндекс", nullptr, "x,y"})) &&
            Add(&mixed, "b", Fixed<bool>(TypeId::kBool, {true, false, true, true, false}, 2)) &&
            Add(&mixed, "day", Fixed<int32_t>(TypeId::kDate32, {0, 15887, -1, 2, 3}, 0));
  laneql::Table wide;
  ok = ok && Add(&wide, "u8", Fixed<uint8_t>(TypeId::kUInt8, {0, 255}, 0)) &&
       Add(&wide, "i16", Fixed<int16_t>(TypeId::kInt16, {-32768, 32767}, 0)) &&
       Add(&wide, "f32", Fixed<float>(TypeId::kFloat32, {1.5f, -3}, 0)) &&
       Add(&wide, "ts", Fixed<int64_t>(TypeId::kTimestampMicros, {0, 1700000000000000}, 0)) &&
       Add(&wide, "big", Strings(TypeId::kLargeString, {"large", nullptr}));
  laneql::Table empty;
  ok = ok && Add(&empty, "s", laneql::Column(TypeId::kString)) &&
       Add(&empty, "i", laneql::Column(TypeId::kInt32));
  laneql::Table no_columns;
  ok = ok && WriteSeed(mixed, dir, "mixed") && WriteSeed(wide, dir, "wide") &&
       WriteSeed(empty, dir, "empty") && WriteSeed(no_columns, dir, "no_columns");
  return ok ? 0 : 1;
}
