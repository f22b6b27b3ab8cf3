// The flat C ABI of the wasm module: every function the TypeScript package calls, in one file.
// Plain C types only (pointers are wasm32 offsets); 64-bit integers cross as doubles or through
// memory, because this Emscripten does not pass i64 to JavaScript as BigInt.
//
// Conventions: a function that can fail returns 0 (or a null pointer, or -1 for counts) and
// leaves the reason in laneql_error_message / _line / _column until the next failing call.
// No function lets a C++ exception escape: in wasm one would unwind into JavaScript as an opaque
// WebAssembly.Exception and leave the caller with half-done state. The module is compiled with
// wasm exceptions (cmake/WasmFlavour.cmake) so that a failed allocation deep in a query
// (std::bad_alloc) unwinds to here and becomes an error, and the module stays usable.
#include <emscripten/emscripten.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "laneql/aligned_buffer.h"
#include "laneql/bitmask.h"
#include "laneql/csv.h"
#include "laneql/database.h"
#include "laneql/hits_generator.h"
#include "laneql/result.h"
#include "laneql/string_match.h"
#include "laneql/sum.h"
#include "laneql/system_info.h"
#include "laneql/table.h"
#include "laneql/targets.h"
#include "laneql/tpch_generator.h"
#include "laneql/types.h"
#include "laneql/version.h"

// dlmalloc (Emscripten's malloc): caps the bytes malloc takes from the system; beyond it malloc
// returns null (operator new throws), which is how memoryLimitMB is enforced.
extern "C" size_t malloc_set_footprint_limit(size_t bytes);

struct laneql_db {
  explicit laneql_db(laneql::DatabaseOptions options) : db(std::move(options)) {}
  laneql::Database db;
  std::string profile;  // laneql_last_profile's text, kept until the next call
};

// laneql_query_with's flags.
enum : int {
  kQueryProfile = 1,             // record the timeline (laneql_last_profile)
  kQueryNoSmallKeyLookup = 2,    // 8/16-bit GROUP BY keys through the hash table
};

// Columns being filled by JavaScript, straight in their final buffers, before registration.
struct laneql_table_builder {
  struct Pending {
    std::string name;
    laneql::TypeId type;
    size_t length = 0;
    laneql::AlignedBuffer values;
    laneql::AlignedBuffer offsets;
    laneql::AlignedBuffer validity;
  };
  std::vector<Pending> columns;
};

namespace {

struct LastError {
  std::string message;
  int line = 0;
  int column = 0;
} g_error;

void SetError(std::string message, int line = 0, int column = 0) {
  g_error.message = std::move(message);
  g_error.line = line;
  g_error.column = column;
}

// The only exception laneql's code lets out is a failed allocation; Emscripten 3.1.6 does not
// match a std::bad_alloc thrown by its operator new against a typed handler (measured), so the
// ABI catches everything and says what it almost always is.
constexpr const char* kOutOfMemory = "out of memory";

std::string JsonString(const std::string& s) {
  std::string out = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\') out += '\\';
    out += c;
  }
  return out + "\"";
}

int ClampThreads(int threads);

// Registers `table` as `name`; 1, or 0 with the error set.
int RegisterTable(laneql_db* db, const char* name, laneql::Table table) {
  std::string error;
  if (!db->db.Register(name, std::move(table), &error)) {
    SetError(error);
    return 0;
  }
  return 1;
}

}  // namespace

extern "C" {

EMSCRIPTEN_KEEPALIVE const char* laneql_version(void) { return laneql::Version(); }

// Threads a query may use: the calling thread plus half the pre-started pool in threaded
// flavours (a database keeps threads - 1 pool threads; the generator and the CSV reader start
// as many again: see cmake/WasmFlavour.cmake).
EMSCRIPTEN_KEEPALIVE int laneql_max_threads(void) {
#if defined(__EMSCRIPTEN_PTHREADS__)
  return std::max(1, std::min(laneql::LogicalProcessors(), LANEQL_WASM_POOL_SIZE / 2 + 1));
#else
  return 1;
#endif
}

// {"version", "flavour", "target", "compiled_targets", "threads"} as JSON text, valid until the
// next call.
EMSCRIPTEN_KEEPALIVE const char* laneql_info_json(void) {
  static std::string json;
  std::string compiled = "[";
  for (const laneql::SimdTarget& t : laneql::CompiledTargets()) {
    compiled += (compiled.size() > 1 ? ", " : "") + JsonString(t.name);
  }
  compiled += "]";
  json = "{\"version\": " + JsonString(laneql::Version()) +
         ", \"flavour\": " + JsonString(LANEQL_WASM_FLAVOUR_NAME) +
         ", \"target\": " + JsonString(laneql::DispatchedTarget().name) +
         ", \"compiled_targets\": " + compiled +
         ", \"threads\": " + std::to_string(laneql_max_threads()) + "}";
  return json.c_str();
}

EMSCRIPTEN_KEEPALIVE const char* laneql_error_message(void) { return g_error.message.c_str(); }
EMSCRIPTEN_KEEPALIVE int laneql_error_line(void) { return g_error.line; }
EMSCRIPTEN_KEEPALIVE int laneql_error_column(void) { return g_error.column; }

// 64-byte aligned, as the column model wants; 0 when memory is exhausted (no abort).
EMSCRIPTEN_KEEPALIVE void* laneql_alloc(size_t bytes) {
  const size_t rounded = (std::max<size_t>(bytes, 1) + 63) & ~size_t{63};
  return std::aligned_alloc(64, rounded);
}

EMSCRIPTEN_KEEPALIVE void laneql_free(void* p) { std::free(p); }

// Caps all of the module's heap at `bytes` (0: no cap but wasm32's 4 GiB). Module-wide: the
// package loads one module per database.
EMSCRIPTEN_KEEPALIVE void laneql_set_memory_limit(double bytes) {
  malloc_set_footprint_limit(bytes <= 0 ? SIZE_MAX : static_cast<size_t>(bytes));
}

// --- Databases ---

// A database whose queries use `threads` threads (clamped to what the module has) and at most
// `query_memory_limit_bytes` of working memory each (0: no limit; the heap cap still applies).
EMSCRIPTEN_KEEPALIVE laneql_db* laneql_open(int threads, double query_memory_limit_bytes) {
  try {
    laneql::DatabaseOptions options;
    options.threads = ClampThreads(threads);
    options.memory_limit_bytes =
        query_memory_limit_bytes > 0 ? static_cast<int64_t>(query_memory_limit_bytes) : 0;
    return new laneql_db(std::move(options));
  } catch (...) {
    SetError(kOutOfMemory);
    return nullptr;
  }
}

EMSCRIPTEN_KEEPALIVE void laneql_close(laneql_db* db) { delete db; }

EMSCRIPTEN_KEEPALIVE int laneql_db_threads(const laneql_db* db) { return db->db.threads(); }

// --- Registering tables from column buffers ---

EMSCRIPTEN_KEEPALIVE laneql_table_builder* laneql_builder_new(void) {
  try {
    return new laneql_table_builder();
  } catch (...) {
    SetError(kOutOfMemory);
    return nullptr;
  }
}

EMSCRIPTEN_KEEPALIVE void laneql_builder_free(laneql_table_builder* builder) { delete builder; }

// Adds a column of `length` rows and allocates its buffers, which the caller then fills in place
// (laneql_builder_values / _offsets / _validity of the newest column): values (TypeByteWidth
// bytes per row, or `string_bytes` UTF-8 bytes), offsets (length + 1, string columns only:
// int32, or int64 for a large_string, as a column of over 2 GiB of text arrives) and, with has_validity, a bitmask of BitmaskWords(length) words (bit set = not NULL).
// So each value is copied into wasm memory exactly once.
EMSCRIPTEN_KEEPALIVE int laneql_builder_add_column(laneql_table_builder* builder, const char* name,
                                                   int type, size_t length, size_t string_bytes,
                                                   int has_validity) {
  try {
    if (type < 0 || !laneql::IsValidTypeId(static_cast<uint64_t>(type))) {
      SetError("column '" + std::string(name) + "': unknown type id " + std::to_string(type));
      return 0;
    }
    laneql_table_builder::Pending column;
    column.name = name;
    column.type = static_cast<laneql::TypeId>(type);
    column.length = length;
    const bool is_string = laneql::IsString(column.type);
    const size_t value_bytes =
        is_string ? string_bytes : length * laneql::TypeByteWidth(column.type);
    std::string error;
    if (!column.values.ResizeForOverwrite(value_bytes, &error) ||
        (is_string &&
         !column.offsets.ResizeForOverwrite((length + 1) * laneql::OffsetByteWidth(column.type), &error)) ||
        (has_validity &&
         !column.validity.Resize(laneql::BitmaskWords(length) * sizeof(uint64_t), &error))) {
      SetError("column '" + column.name + "': " + error);
      return 0;
    }
    builder->columns.push_back(std::move(column));
    return 1;
  } catch (...) {
    SetError(std::string("column '") + name + "': " + kOutOfMemory);
    return 0;
  }
}

EMSCRIPTEN_KEEPALIVE void* laneql_builder_values(laneql_table_builder* builder) {
  return builder->columns.back().values.data();
}
EMSCRIPTEN_KEEPALIVE void* laneql_builder_offsets(laneql_table_builder* builder) {
  return builder->columns.back().offsets.data();
}
EMSCRIPTEN_KEEPALIVE void* laneql_builder_validity(laneql_table_builder* builder) {
  return builder->columns.back().validity.data();
}

// Checks the filled columns (string offsets), makes them a table and registers it under `name`,
// replacing a table of that name. Consumes the builder, on success and on failure.
EMSCRIPTEN_KEEPALIVE int laneql_register(laneql_db* db, const char* name,
                                         laneql_table_builder* builder) {
  std::unique_ptr<laneql_table_builder> owned(builder);
  try {
    laneql::Table table;
    std::string error;
    for (laneql_table_builder::Pending& pending : owned->columns) {
      laneql::Column column;
      if (!laneql::Column::FromBuffers(pending.type, pending.length, std::move(pending.values),
                                       std::move(pending.offsets), std::move(pending.validity),
                                       &column, &error) ||
          !table.AddColumn(pending.name, std::move(column), &error)) {
        SetError("column '" + pending.name + "': " + error);
        return 0;
      }
    }
    return RegisterTable(db, name, std::move(table));
  } catch (...) {
    SetError(kOutOfMemory);
    return 0;
  }
}

// Reads CSV text (`length` bytes at `text`) into a table registered as `name`. delimiter: 0 =
// detect; header: 0 detect, 1 yes, 2 no; create_table: "" or a CREATE TABLE statement giving the
// columns. Returns the rows read, or -1.
EMSCRIPTEN_KEEPALIVE double laneql_register_csv(laneql_db* db, const char* name, const char* text,
                                                size_t length, int delimiter, int header,
                                                const char* null_string, const char* create_table,
                                                int skip_bad_rows) {
  try {
    laneql::CsvReadOptions options;
    options.delimiter = static_cast<char>(delimiter);
    options.header = header == 1   ? laneql::CsvReadOptions::Header::kYes
                     : header == 2 ? laneql::CsvReadOptions::Header::kNo
                                   : laneql::CsvReadOptions::Header::kDetect;
    options.null_string = null_string;
    options.skip_bad_rows = skip_bad_rows != 0;
    options.threads = db->db.threads();
    std::string error;
    if (create_table[0] != '\0') {
      std::string table_name;
      if (!laneql::ParseCreateTable(create_table, &table_name, &options.schema, &error)) {
        SetError("createTable: " + error);
        return -1;
      }
    }
    laneql::Table table;
    laneql::CsvReadStats stats;
    if (!laneql::ReadCsvText(std::string_view(text, length), options, &table, &stats, &error,
                             "<csv>") ||
        !db->db.Register(name, std::move(table), &error)) {
      SetError(error);
      return -1;
    }
    return static_cast<double>(stats.rows);
  } catch (...) {
    SetError(kOutOfMemory);
    return -1;
  }
}

// Registers laneql's generated ClickBench `hits` data (laneql/hits_generator.h) as `name`:
// `columns` is "" for all 105 columns, or the names of those to keep separated by commas.
EMSCRIPTEN_KEEPALIVE int laneql_generate_hits(laneql_db* db, const char* name, double rows,
                                              double seed, const char* columns) {
  try {
    laneql::HitsOptions options;
    options.rows = static_cast<size_t>(rows);
    options.seed = static_cast<uint64_t>(seed);
    options.threads = db->db.threads();
    for (std::string_view rest = columns; !rest.empty();) {
      const size_t comma = std::min(rest.find(','), rest.size());
      options.columns.emplace_back(rest.substr(0, comma));
      rest.remove_prefix(std::min(comma + 1, rest.size()));
    }
    laneql::Table table;
    std::string error;
    if (!laneql::GenerateHits(options, &table, &error)) {
      SetError(error);
      return 0;
    }
    return RegisterTable(db, name, std::move(table));
  } catch (...) {
    SetError(kOutOfMemory);
    return 0;
  }
}

// TPC-H's 8 table names (laneql/tpch_generator.h), comma-separated, in generation order.
EMSCRIPTEN_KEEPALIVE const char* laneql_tpch_table_names(void) {
  static const std::string names = [] {
    std::string joined;
    for (const std::string& name : laneql::TpchTableNames()) joined += (joined.empty() ? "" : ",") + name;
    return joined;
  }();
  return names.c_str();
}

// Whether the 8 TPC-H tables at `scale_factor` can be made here, checked before any is made so
// that a bad scale factor registers nothing: 1, or 0 with the reason set.
EMSCRIPTEN_KEEPALIVE int laneql_check_tpch_scale(double scale_factor) {
  try {
    std::string error;
    if (!laneql::CheckTpchScale(scale_factor, /*all_at_once=*/true, &error)) {
      SetError(error);
      return 0;
    }
    return 1;
  } catch (...) {
    SetError(kOutOfMemory);
    return 0;
  }
}

// Registers TPC-H table `table` (e.g. "lineitem") at `scale_factor` and `seed` under its own
// name, the same rows as `laneql gen tpch`. One table at a time, so that only one is being
// built while the others are already registered. Returns its rows, or -1 with the error set.
EMSCRIPTEN_KEEPALIVE double laneql_generate_tpch_table(laneql_db* db, const char* table, double scale_factor,
                                                       double seed) {
  try {
    laneql::TpchOptions options;
    options.scale_factor = scale_factor;
    options.seed = static_cast<uint64_t>(seed);
    options.threads = db->db.threads();
    laneql::Table generated;
    std::string error;
    if (!laneql::GenerateTpchTable(options, table, &generated, &error)) {
      SetError(error);
      return -1;
    }
    const double rows = static_cast<double>(generated.num_rows());
    return RegisterTable(db, table, std::move(generated)) ? rows : -1;
  } catch (...) {
    SetError(kOutOfMemory);
    return -1;
  }
}

// --- Queries and their results ---

// Runs one statement (`length` UTF-8 bytes at `sql`) with at most `threads` threads (0: the
// database's) and kQuery* `flags`, stopping it after `timeout_ms` (0: never), with a memory
// limit of `memory_limit_bytes` (negative: the database's; 0: none). Returns the result (free it
// with laneql_result_free), or null with the error (and its line and column in the SQL) set.
EMSCRIPTEN_KEEPALIVE laneql::Result* laneql_query_with(laneql_db* db, const char* sql, size_t length,
                                                       int threads, int flags, double timeout_ms,
                                                       double memory_limit_bytes) {
  try {
    laneql::QueryOptions options;
    options.threads = std::max(0, threads);
    options.timeout_ms = timeout_ms > 0 ? static_cast<int64_t>(timeout_ms) : 0;
    options.memory_limit_bytes =
        memory_limit_bytes < 0 ? -1 : static_cast<int64_t>(memory_limit_bytes);
    options.profile = (flags & kQueryProfile) != 0;
    options.small_key_lookup = (flags & kQueryNoSmallKeyLookup) == 0;
    auto result =
        std::make_unique<laneql::Result>(db->db.Query(std::string_view(sql, length), options));
    if (!result->ok()) {
      SetError(result->error(), result->error_line(), result->error_column());
      return nullptr;
    }
    return result.release();
  } catch (...) {
    SetError(std::string(kOutOfMemory) + " while running the query");
    return nullptr;
  }
}

EMSCRIPTEN_KEEPALIVE laneql::Result* laneql_query(laneql_db* db, const char* sql, size_t length) {
  return laneql_query_with(db, sql, length, 0, 0, 0, -1);
}

// The last profiled query's timeline (trace-event JSON; "" if none), valid until the next call.
EMSCRIPTEN_KEEPALIVE const char* laneql_last_profile(laneql_db* db) {
  try {
    db->profile = db->db.LastProfileJson();
  } catch (...) {
    db->profile.clear();
  }
  return db->profile.c_str();
}

EMSCRIPTEN_KEEPALIVE void laneql_result_free(laneql::Result* result) { delete result; }
EMSCRIPTEN_KEEPALIVE double laneql_result_rows(const laneql::Result* result) {
  return static_cast<double>(result->num_rows());
}
EMSCRIPTEN_KEEPALIVE int laneql_result_columns(const laneql::Result* result) {
  return static_cast<int>(result->num_columns());
}
EMSCRIPTEN_KEEPALIVE const char* laneql_result_name(const laneql::Result* result, int i) {
  return result->name(i).c_str();
}
// The column's laneql::TypeId.
EMSCRIPTEN_KEEPALIVE int laneql_result_type(const laneql::Result* result, int i) {
  return static_cast<int>(result->type(i));
}
// Values: fixed-width values, or the UTF-8 bytes of a string column.
EMSCRIPTEN_KEEPALIVE const void* laneql_result_values(const laneql::Result* result, int i) {
  return result->column(i).values_buffer().data();
}
EMSCRIPTEN_KEEPALIVE size_t laneql_result_values_bytes(const laneql::Result* result, int i) {
  return result->column(i).values_buffer().size();
}
// String and list columns: rows + 1 offsets of OffsetByteWidth(type) bytes each (a list's
// are byte offsets into its packed elements: laneql/types.h).
EMSCRIPTEN_KEEPALIVE const void* laneql_result_offsets(const laneql::Result* result, int i) {
  const laneql::Column& column = result->column(i);
  if (laneql::PhysicalType(column.type()) == laneql::TypeId::kString) return column.Offsets32();
  if (column.type() == laneql::TypeId::kLargeString) return column.Offsets64();
  return nullptr;
}
// The validity bitmask (bit set = not NULL), or null when the column has no NULLs.
EMSCRIPTEN_KEEPALIVE const uint64_t* laneql_result_validity(const laneql::Result* result, int i) {
  return result->column(i).validity();
}

// --- Kernels called directly ---

// The substring search's prefilter stages for LIKE '%needle%' on VARCHAR column `column` of
// table `table` (laneql::CountSubstringCandidates with the engine's prefilter). Writes into
// out[0..8]: rows, bytes, positions, first_byte, two_byte, verified, matching rows, and the two
// needle positions the prefilter compares. 1, or 0 with the error set.
EMSCRIPTEN_KEEPALIVE int laneql_like_counts(laneql_db* db, const char* table_name,
                                            const char* column_name, const char* needle,
                                            size_t needle_length, double* out) {
  const laneql::Table* table = db->db.FindTable(table_name);
  if (table == nullptr) {
    SetError(std::string("no table named '") + table_name + "'");
    return 0;
  }
  const laneql::Column* column = table->FindColumn(column_name);
  if (column == nullptr) {
    SetError(std::string("table '") + table_name + "' has no column '" + column_name + "'");
    return 0;
  }
  if (column->type() != laneql::TypeId::kString) {
    SetError(std::string("column '") + column_name + "' is " + laneql::DuckDbTypeName(column->type()) +
             ": LIKE counts need a VARCHAR column");
    return 0;
  }
  const std::string_view text(needle, needle_length);
  if (text.empty()) {
    SetError("LIKE counts need a needle of at least one byte");
    return 0;
  }
  const laneql::SubstringPrefilter prefilter = laneql::kDefaultSubstringPrefilter;
  const size_t n = column->length();
  const int32_t* offsets = column->Offsets32();
  laneql::SubstringCandidateCounts counts;
  if (n != 0) {  // an empty column may have no offsets at all
    counts = laneql::CountSubstringCandidates(prefilter, offsets, column->values_buffer().data(), n,
                                              text, column->validity());
  }
  size_t first = 0, second = 0;
  laneql::SubstringPrefilterPositions(prefilter, text, &first, &second);
  const double values[] = {static_cast<double>(n),
                           n == 0 ? 0.0 : static_cast<double>(offsets[n] - offsets[0]),
                           static_cast<double>(counts.positions),
                           static_cast<double>(counts.first_byte),
                           static_cast<double>(counts.two_byte),
                           static_cast<double>(counts.verified),
                           static_cast<double>(counts.rows),
                           static_cast<double>(first),
                           static_cast<double>(second)};
  std::copy(std::begin(values), std::end(values), out);
  return 1;
}

EMSCRIPTEN_KEEPALIVE double laneql_sum_f64(const double* data, size_t n, int threads) {
  return laneql::SumFloat64Parallel(data, n, ClampThreads(threads));
}

// Writes the exact 128-bit sum as {low 64 bits, high 64 bits} into out[0..1].
EMSCRIPTEN_KEEPALIVE void laneql_sum_i64(const int64_t* data, size_t n, int threads,
                                         uint64_t* out) {
  const laneql::Int128 sum = laneql::SumInt64Parallel(data, n, ClampThreads(threads));
  out[0] = laneql::Int128Low(sum);
  out[1] = static_cast<uint64_t>(laneql::Int128High(sum));
}

}  // extern "C"

namespace {
int ClampThreads(int threads) { return std::max(1, std::min(threads, laneql_max_threads())); }
}  // namespace
