// Splitting CSV text into records and fields, shared by the sniffer and the parallel parser.
//
// Records end at line feeds outside quotes. "Outside quotes" is decided by quote parity alone:
// a byte is inside a quoted field when an odd number of quote characters precede it. For
// well-formed RFC 4180 text (quotes only open and close fields, doubled inside them) that is
// exactly the quoting; for text that is not, it is still a fixed rule that depends on nothing
// but the bytes before a position, so a chunk parsed by any thread splits the same way once it
// knows the parity at its start (one quote count per chunk). Misplaced quotes then surface as
// bad fields (see UnquoteField), never as a different split for a different thread count.
#ifndef LANEQL_SRC_IO_CSV_RECORDS_H_
#define LANEQL_SRC_IO_CSV_RECORDS_H_

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "laneql/csv_scan.h"

namespace laneql {
namespace csv {

// A field's raw bytes text[begin, end) (quotes included, a record's final CR removed).
struct FieldSpan {
  size_t begin;
  size_t end;
  bool has_quote;  // some byte of it is the quote (from the block masks)
};

struct Record {
  size_t begin = 0;  // first byte
  size_t end = 0;    // the terminating '\n', or the text size
  bool unterminated = false;  // ends at the end of the text inside a quoted field
  // False when no byte of the record is >= 0x80 (from the block masks; true may be a false
  // alarm from a neighbouring record in a shared block): the parser skips the UTF-8 check.
  bool may_have_non_ascii = true;
  std::vector<FieldSpan> fields;
};

// Walks the records starting at `begin` (the start of a record, outside quotes) up to `limit`
// (records that start at or after `limit` are not returned; the last one returned may end
// past it).
class RecordSplitter {
 public:
  RecordSplitter(std::string_view text, char delimiter, char quote, size_t begin, size_t limit);
  // The next record, or false when none starts before the limit.
  bool Next(Record* record);

 private:
  // Scans the next window of blocks at pos_; false at the end of the text.
  bool Refill();

  std::string_view text_;
  uint8_t delimiter_;
  uint8_t quote_;
  size_t limit_;
  size_t pos_;          // the first byte not yet handed out as structure
  size_t window_begin_ = 0;  // text offset of masks_[0]
  size_t window_blocks_ = 0;
  size_t block_ = 0;         // the next block of the window to consume
  size_t cur_base_ = 0;      // text offset of the block being consumed
  uint64_t pending_ = 0;     // structural bits of the current block not yet consumed
  uint64_t newline_bits_ = 0;  // which of them are line feeds
  uint64_t in_quotes_carry_ = 0;  // all ones when the previous block ended inside quotes
  bool block_has_non_ascii_ = false;  // the block being consumed has a byte >= 0x80
  uint64_t quote_bits_ = 0;           // the quotes of the block being consumed
  size_t quote_end_before_block_ = 0;  // 1 + the offset of the last quote before it; 0: none
  bool exhausted_ = false;
  std::vector<CsvBlockMasks> masks_;
};

// The value of a raw field: for a quoted field its content with doubled quotes undoubled
// (stored in *scratch when it had any). Returns false with *problem for a quote inside an
// unquoted field, text after a closing quote, or (when `unterminated`) a missing closing quote.
// `has_quote` false (FieldSpan::has_quote) skips the search for a stray quote.
bool UnquoteField(std::string_view raw, char quote, bool unterminated, bool has_quote,
                  std::string* scratch, std::string_view* value, bool* quoted,
                  std::string* problem);

// Where a byte offset is for messages: 1-based line (line feeds before it, quoted or not, plus
// one) and 1-based byte column within that line.
void LineAndColumn(std::string_view text, size_t offset, size_t* line, size_t* column);

}  // namespace csv
}  // namespace laneql

#endif  // LANEQL_SRC_IO_CSV_RECORDS_H_
