#include "src/exec/relation.h"

#include "src/exec/gather_on_threads.h"

#include "src/exec/hash_join.h"

#include <cmath>
#include <cstring>
#include <limits>
#include <utility>

namespace laneql {
namespace exec {
namespace {

struct Bytes16 {
  uint64_t low, high;
};

// Appends row `row` of `in` to `out` (same type).
bool AppendRow(const Column& in, size_t row, Column* out, std::string* error) {
  if (!in.IsValid(row)) return out->AppendNull(error);
  if (IsString(in.type())) return out->AppendString(in.StringAt(row), error);
  switch (TypeByteWidth(in.type())) {
    case 1: return out->Append(in.Values<uint8_t>()[row], error);
    case 2: return out->Append(in.Values<uint16_t>()[row], error);
    case 4: return out->Append(in.Values<uint32_t>()[row], error);
    case 8: return out->Append(in.Values<uint64_t>()[row], error);
    case 16: return out->Append(in.Values<Bytes16>()[row], error);
  }
  if (error != nullptr) *error = "internal error: a column of an unknown width";
  return false;
}

}  // namespace

std::string RelationColumnName(size_t i) { return "#" + std::to_string(i); }

bool RelationFromResult(Result result, const std::string& qualifier, Relation* out,
                        std::string* error) {
  auto table = std::make_shared<Table>();
  out->scope.clear();
  for (size_t c = 0; c < result.num_columns(); ++c) {
    out->scope.push_back(plan::ScopeColumn{qualifier, result.name(c), false});
  }
  std::vector<Column> columns = result.ReleaseColumns();  // moved, not copied
  for (size_t c = 0; c < columns.size(); ++c) {
    // Relations hold 32-bit offsets, as results do, where the text fits them (CopyColumn keeps
    // int64 ones past 2 GiB).
    if (columns[c].type() == TypeId::kLargeString) {
      Column narrow;
      if (!CopyColumn(columns[c], &narrow, error)) return false;
      columns[c] = std::move(narrow);
    }
    if (!table->AddColumn(RelationColumnName(c), std::move(columns[c]), error)) return false;
  }
  out->table = std::move(table);
  return true;
}

Relation RelationOverTable(std::shared_ptr<const Table> table, const std::string& qualifier) {
  Relation relation;
  for (size_t c = 0; c < table->num_columns(); ++c) {
    relation.scope.push_back(plan::ScopeColumn{qualifier, table->column_name(c), false});
  }
  relation.table = std::move(table);
  return relation;
}

bool ShareColumn(const Column& in, const std::shared_ptr<const void>& owner, Column* out, std::string* error) {
  auto view = [&owner](const AlignedBuffer& b) {
    return b.size() == 0 ? AlignedBuffer() : AlignedBuffer::View(b.data(), b.size(), b.capacity(), owner);
  };
  // A .laneql file's column is checked before its bytes are shared (Column::Verify).
  if (!in.Verify(error) || !Column::FromBuffers(in.type(), in.length(), view(in.values_buffer()),
                                                view(in.offsets_buffer()), view(in.validity_buffer()), out, error)) {
    return false;
  }
  out->ShareFactsOf(in);  // the same values: the zone map and ranges worked out once serve both
  return true;
}

bool ShareColumns(const Relation& in, const std::vector<size_t>& columns, Relation* out, std::string* error) {
  auto table = std::make_shared<Table>();
  const std::shared_ptr<const void> owner = in.table;
  plan::ColumnScope scope;
  for (size_t k = 0; k < columns.size(); ++k) {
    Column shared;
    if (!ShareColumn(in.table->column(columns[k]), owner, &shared, error) ||
        !table->AddColumn(RelationColumnName(k), std::move(shared), error)) {
      return false;
    }
    scope.push_back(in.scope[columns[k]]);
  }
  out->table = std::move(table);
  out->scope = std::move(scope);
  return true;
}

bool AddRelationColumn(Relation* relation, Column column, plan::ScopeColumn name, std::string* error) {
  auto table = std::make_shared<Table>();
  const std::shared_ptr<const void> owner = relation->table;
  const size_t n = relation->table->num_columns();
  for (size_t c = 0; c < n; ++c) {
    Column shared;
    if (!ShareColumn(relation->table->column(c), owner, &shared, error) ||
        !table->AddColumn(RelationColumnName(c), std::move(shared), error)) {
      return false;
    }
  }
  if (!table->AddColumn(RelationColumnName(n), std::move(column), error)) return false;
  relation->table = std::move(table);
  relation->scope.push_back(std::move(name));
  return true;
}

Result RelationToResult(const Relation& relation) {
  Result result;
  std::string error;
  const std::shared_ptr<const void> owner = relation.table;
  for (size_t c = 0; c < relation.table->num_columns(); ++c) {
    if (relation.scope[c].hidden) continue;
    // The answer shares the relation's bytes (kept alive by its table), as a view.
    Column column;
    const bool ok = relation.table->column(c).type() == TypeId::kLargeString
                        ? CopyColumn(relation.table->column(c), &column, &error)
                        : ShareColumn(relation.table->column(c), owner, &column, &error);
    if (!ok || !result.AddColumn(relation.scope[c].name, std::move(column), &error)) return Result::Error(error);
  }
  return result;
}

bool CopyColumn(const Column& in, Column* out, std::string* error) {
  if (in.type() != TypeId::kLargeString) {
    // Buffer by buffer: a few memcpy calls, not a value at a time.
    AlignedBuffer values, offsets, validity;
    if (!values.Assign(in.values_buffer().data(), in.values_buffer().size(), error) ||
        !offsets.Assign(in.offsets_buffer().data(), in.offsets_buffer().size(), error) ||
        !validity.Assign(in.validity_buffer().data(), in.validity_buffer().size(), error)) {
      return false;
    }
    return Column::FromBuffers(in.type(), in.length(), std::move(values), std::move(offsets), std::move(validity),
                               out, error);
  }
  *out = Column(TypeId::kString);
  return AppendColumn(in, out, error);
}

bool AppendColumn(const Column& in, Column* out, std::string* error) {
  size_t bytes = 0;
  if (IsString(in.type())) {
    for (size_t r = 0; r < in.length(); ++r) bytes += in.StringAt(r).size();
  }
  if (!out->Reserve(in.length(), bytes, error)) return false;
  for (size_t r = 0; r < in.length(); ++r) {
    if (!AppendRow(in, r, out, error)) return false;
  }
  return true;
}

bool TakeRows(const Column& in, const std::vector<uint32_t>& rows, Column* out,
              std::string* error) {
  static_assert(kMissingRow == kNoRow, "one marker for a missing row");
  return GatherRows(in, rows, out, error);  // the gather kernels (hash_join.h)
}

bool GatherJoinedRows(const Relation& left, const Relation& right, const std::vector<uint32_t>& left_rows,
                      const std::vector<uint32_t>& right_rows, Relation* out, std::string* error) {
  auto table = std::make_shared<Table>();
  size_t c_out = 0;
  for (const auto& [side, rows] : {std::pair{&left, &left_rows}, std::pair{&right, &right_rows}}) {
    for (size_t c = 0; c < side->table->num_columns(); ++c) {
      Column column;
      if (!TakeRows(side->table->column(c), *rows, &column, error) ||
          !table->AddColumn(RelationColumnName(c_out++), std::move(column), error)) {
        return false;
      }
    }
  }
  out->scope = left.scope;
  out->scope.insert(out->scope.end(), right.scope.begin(), right.scope.end());
  out->table = std::move(table);
  return true;
}

bool KeepRelationRows(Relation* relation, const std::vector<uint32_t>& rows, std::string* error,
                      const ExecContext* ctx) {
  auto table = std::make_shared<Table>();
  std::vector<GatherJob> jobs;
  for (size_t c = 0; c < relation->table->num_columns(); ++c) jobs.push_back(GatherJob{&relation->table->column(c), &rows});
  std::vector<Column> kept;
  if (ctx != nullptr) {
    if (!GatherColumnsOnThreads(*ctx, jobs, &kept, error)) return false;
  } else {
    kept.resize(jobs.size());
    for (size_t c = 0; c < jobs.size(); ++c) {
      if (!TakeRows(*jobs[c].source, rows, &kept[c], error)) return false;
    }
  }
  for (size_t c = 0; c < kept.size(); ++c) {
    if (!table->AddColumn(RelationColumnName(c), std::move(kept[c]), error)) return false;
  }
  relation->table = std::move(table);
  return true;
}

bool NullColumn(TypeId type, size_t length, Column* out, std::string* error) {
  *out = Column(type == TypeId::kLargeString ? TypeId::kString : type);
  if (!out->Reserve(length, 0, error)) return false;
  for (size_t r = 0; r < length; ++r) {
    if (!out->AppendNull(error)) return false;
  }
  return true;
}

std::vector<std::string> RowKeys(const Table& table) {
  std::vector<std::string> keys(table.num_rows());
  for (size_t c = 0; c < table.num_columns(); ++c) {
    const Column& column = table.column(c);
    const TypeId type = column.type();
    const size_t width = IsString(type) ? 0 : TypeByteWidth(type);
    for (size_t r = 0; r < keys.size(); ++r) {
      std::string& key = keys[r];
      if (!column.IsValid(r)) {
        key.push_back('\0');
        continue;
      }
      key.push_back('\1');
      if (IsString(type)) {
        const std::string_view s = column.StringAt(r);
        const uint64_t size = s.size();
        key.append(reinterpret_cast<const char*>(&size), sizeof(size));
        key.append(s.data(), s.size());
      } else if (type == TypeId::kFloat64 || type == TypeId::kFloat32) {
        double v = type == TypeId::kFloat64 ? column.Values<double>()[r] : column.Values<float>()[r];
        if (v == 0) v = 0;                                  // -0.0 groups with 0.0
        if (std::isnan(v)) v = std::numeric_limits<double>::quiet_NaN();
        uint64_t bits;
        std::memcpy(&bits, &v, sizeof(bits));
        key.append(reinterpret_cast<const char*>(&bits), sizeof(bits));
      } else {
        const char* base = reinterpret_cast<const char*>(column.values_buffer().data());
        key.append(base + r * width, width);
      }
    }
  }
  return keys;
}

}  // namespace exec
}  // namespace laneql
