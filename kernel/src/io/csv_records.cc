// Record and field splitting over the SIMD structural masks (see csv_records.h).
#include "src/io/csv_records.h"

#include <algorithm>
#include <cstring>

namespace laneql {
namespace csv {
namespace {

// Blocks scanned per window: 4 KiB of text, so the masks stay in L1 while they are consumed.
constexpr size_t kWindowBlocks = 64;

// Bit i = parity of the set bits at positions <= i (which bytes are inside quotes, given the
// quote bits of a block, when the block starts outside quotes).
uint64_t PrefixXor(uint64_t x) {
  x ^= x << 1;
  x ^= x << 2;
  x ^= x << 4;
  x ^= x << 8;
  x ^= x << 16;
  x ^= x << 32;
  return x;
}

}  // namespace

RecordSplitter::RecordSplitter(std::string_view text, char delimiter, char quote, size_t begin,
                               size_t limit)
    : text_(text),
      delimiter_(static_cast<uint8_t>(delimiter)),
      quote_(static_cast<uint8_t>(quote)),
      limit_(std::min(limit, text.size())),
      pos_(begin),
      window_begin_(begin),
      masks_(kWindowBlocks) {}

bool RecordSplitter::Refill() {
  const size_t next = window_begin_ + 64 * window_blocks_;
  if (next >= text_.size()) return false;
  window_begin_ = next;
  const size_t bytes = std::min(text_.size() - next, 64 * kWindowBlocks);
  CsvScanBlocks(reinterpret_cast<const uint8_t*>(text_.data()) + next, bytes, delimiter_, quote_,
                masks_.data());
  window_blocks_ = CsvScanBlockCount(bytes);
  block_ = 0;
  return true;
}

bool RecordSplitter::Next(Record* record) {
  if (pos_ >= limit_ || pos_ >= text_.size()) return false;
  record->begin = pos_;
  record->unterminated = false;
  record->may_have_non_ascii = block_has_non_ascii_;
  record->fields.clear();
  size_t field_begin = pos_;
  // Whether a quote lies in [field_begin, cur_base_ + bit): the last quote before that point,
  // from the current block's bits below `bit` or else from the earlier blocks.
  const auto quote_since_field_begin = [&](unsigned bit) {
    const uint64_t below = bit == 64 ? quote_bits_ : quote_bits_ & ((uint64_t{1} << bit) - 1);
    const size_t last_end = below != 0 ? cur_base_ + 64 - static_cast<size_t>(__builtin_clzll(below))
                                       : quote_end_before_block_;
    return last_end > field_begin;
  };
  const auto finish_last_field = [&](size_t end, bool has_quote) {
    // A CR before the line feed (or the end) belongs to the line end, not the value.
    if (!record->unterminated && end > field_begin && text_[end - 1] == '\r') --end;
    record->fields.push_back({field_begin, end, has_quote});
  };
  while (true) {
    while (pending_ == 0) {
      if (exhausted_ || (block_ >= window_blocks_ && !Refill())) {
        exhausted_ = true;
        record->end = text_.size();
        record->unterminated = in_quotes_carry_ != 0;
        finish_last_field(text_.size(), quote_since_field_begin(64));
        pos_ = text_.size();
        return true;
      }
      const CsvBlockMasks& m = masks_[block_];
      const uint64_t inside = PrefixXor(m.quotes) ^ in_quotes_carry_;
      in_quotes_carry_ = (inside >> 63) != 0 ? ~uint64_t{0} : 0;
      pending_ = (m.delimiters | m.newlines) & ~inside;
      newline_bits_ = m.newlines;
      if (quote_bits_ != 0) {
        quote_end_before_block_ = cur_base_ + 64 - static_cast<size_t>(__builtin_clzll(quote_bits_));
      }
      quote_bits_ = m.quotes;
      block_has_non_ascii_ = m.non_ascii != 0;
      record->may_have_non_ascii |= block_has_non_ascii_;
      cur_base_ = window_begin_ + 64 * block_;
      ++block_;
    }
    const unsigned bit = static_cast<unsigned>(__builtin_ctzll(pending_));
    pending_ &= pending_ - 1;
    const size_t p = cur_base_ + bit;
    if ((newline_bits_ >> bit) & 1) {
      record->end = p;
      finish_last_field(p, quote_since_field_begin(bit));
      pos_ = p + 1;
      return true;
    }
    record->fields.push_back({field_begin, p, quote_since_field_begin(bit)});
    field_begin = p + 1;
  }
}

bool UnquoteField(std::string_view raw, char quote, bool unterminated, bool has_quote,
                  std::string* scratch, std::string_view* value, bool* quoted,
                  std::string* problem) {
  if (raw.empty() || raw[0] != quote) {
    *quoted = false;
    if (has_quote) {
      *problem = "a quote inside an unquoted field (quote the whole field and double the quote)";
      return false;
    }
    *value = raw;
    return true;
  }
  *quoted = true;
  if (unterminated) {
    *problem = "unterminated quoted field (no closing quote before the end of the file)";
    return false;
  }
  // Fast path: no quote between the opening one and the last byte.
  const void* first = raw.size() > 1 ? std::memchr(raw.data() + 1, quote, raw.size() - 1) : nullptr;
  if (first != nullptr && static_cast<const char*>(first) == raw.data() + raw.size() - 1) {
    *value = raw.substr(1, raw.size() - 2);
    return true;
  }
  scratch->clear();
  size_t i = 1;
  while (i < raw.size()) {
    const char c = raw[i];
    if (c != quote) {
      scratch->push_back(c);
      ++i;
      continue;
    }
    if (i + 1 < raw.size() && raw[i + 1] == quote) {  // a doubled quote
      scratch->push_back(quote);
      i += 2;
      continue;
    }
    if (i + 1 != raw.size()) {
      *problem = "text after the closing quote of a quoted field";
      return false;
    }
    *value = *scratch;
    return true;
  }
  *problem = "unterminated quoted field";
  return false;
}

void LineAndColumn(std::string_view text, size_t offset, size_t* line, size_t* column) {
  offset = std::min(offset, text.size());
  *line = 1 + CsvCountByte(reinterpret_cast<const uint8_t*>(text.data()), offset, '\n');
  size_t line_start = offset;
  while (line_start > 0 && text[line_start - 1] != '\n') --line_start;
  *column = offset - line_start + 1;
}

}  // namespace csv
}  // namespace laneql
