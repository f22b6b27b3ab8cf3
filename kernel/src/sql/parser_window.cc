// Window syntax: a call's IGNORE / RESPECT NULLS, the OVER clause of a call (OVER name, OVER
// ([name] [PARTITION BY ...] [ORDER BY ...] [frame])), the frames (ROWS | RANGE | GROUPS,
// BETWEEN bound AND bound or one bound, then EXCLUDE ...), and the SELECT's WINDOW and QUALIFY
// clauses. Frame shapes that can never hold a row are refused here with DuckDB's texts, as
// DuckDB's parser does.
#include <utility>

#include "src/sql/parser_internal.h"

namespace laneql {
namespace sql {

bool Parser::AtOver() const { return IsWord(Current(), "OVER"); }

void Parser::ParseNullTreatment(Expr* call, const Token** word) {
  const bool ignore = IsWord(Current(), "IGNORE");
  if ((!ignore && !IsWord(Current(), "RESPECT")) || !IsWord(Ahead(1), "NULLS")) return;
  *word = &Current();
  call->null_treatment = ignore ? NullTreatment::kIgnore : NullTreatment::kRespect;
  Next();
  Next();
}

// A frame's unit word: a window name cannot be one (OVER (w ROWS ...) is read as a frame).
bool Parser::IsFrameUnit(const Token& token) {
  return IsWord(token, "ROWS") || IsWord(token, "RANGE") || IsWord(token, "GROUPS");
}

bool Parser::ParseOver(Expr* call) {
  Next();  // OVER
  call->kind = ExprKind::kWindowCall;
  call->window = std::make_unique<WindowSpec>();
  WindowSpec& spec = *call->window;
  spec.pos = Current().pos;
  if (At(TokenKind::kIdentifier) || At(TokenKind::kQuotedIdentifier)) {
    return ParseName(&spec.base, &spec.pos, "a window name");
  }
  if (!At(TokenKind::kLeftParen)) return FailExpected("'(' or a window name after OVER");
  return ParseWindowSpec(&spec);  // the call's height counts the window's (Finish)
}

bool Parser::ParseWindowSpec(WindowSpec* spec) {
  const Token& open = Current();
  Next();  // (
  spec->pos = open.pos;
  // (w ...): a named window to start from; the clause words are not names here.
  if ((At(TokenKind::kIdentifier) && !IsWord(Current(), "PARTITION") && !IsFrameUnit(Current())) ||
      At(TokenKind::kQuotedIdentifier)) {
    if (!ParseName(&spec->base, nullptr, "a window name")) return false;
    spec->copies_base = true;
  }
  if (IsWord(Current(), "PARTITION")) {
    Next();
    if (!ExpectKeyword("BY", " after 'PARTITION'") || !ParseExprList(&spec->partition_by)) return false;
  }
  if (AcceptKeyword("ORDER")) {
    bool all = false;
    if (!ExpectKeyword("BY", " after 'ORDER'") || !ParseOrderBy(&spec->order_by, &all)) return false;
    if (all) return Fail(open, "ORDER BY ALL is not allowed in a window");
  }
  if (IsFrameUnit(Current())) {
    if (!ParseFrame(spec)) return false;
  }
  return ExpectClosingParen(open);
}

bool Parser::ParseFrameBound(FrameBound* bound) {
  bound->pos = Current().pos;
  if (IsWord(Current(), "UNBOUNDED")) {
    Next();
    if (IsWord(Current(), "PRECEDING")) {
      bound->kind = FrameBoundKind::kUnboundedPreceding;
    } else if (IsWord(Current(), "FOLLOWING")) {
      bound->kind = FrameBoundKind::kUnboundedFollowing;
    } else {
      return FailExpected("'PRECEDING' or 'FOLLOWING' after 'UNBOUNDED'");
    }
    Next();
    return true;
  }
  if (IsWord(Current(), "CURRENT")) {
    Next();
    if (!IsWord(Current(), "ROW")) return FailExpected("'ROW' after 'CURRENT'");
    Next();
    bound->kind = FrameBoundKind::kCurrentRow;
    return true;
  }
  bound->offset = ParseAdditive();
  if (!bound->offset) return false;
  if (IsWord(Current(), "PRECEDING")) {
    bound->kind = FrameBoundKind::kPreceding;
  } else if (IsWord(Current(), "FOLLOWING")) {
    bound->kind = FrameBoundKind::kFollowing;
  } else {
    return FailExpected("'PRECEDING' or 'FOLLOWING' after the frame offset");
  }
  Next();
  return true;
}

bool Parser::ParseFrame(WindowSpec* spec) {
  const Token& unit = Current();
  spec->frame = IsWord(unit, "ROWS") ? FrameUnit::kRows : IsWord(unit, "RANGE") ? FrameUnit::kRange : FrameUnit::kGroups;
  spec->frame_pos = unit.pos;
  Next();
  if (AcceptKeyword("BETWEEN")) {
    if (!ParseFrameBound(&spec->start) || !ExpectKeyword("AND", " between the frame's bounds") ||
        !ParseFrameBound(&spec->end)) {
      return false;
    }
  } else {
    if (!ParseFrameBound(&spec->start)) return false;
    if (spec->start.kind == FrameBoundKind::kFollowing) {
      return Fail(unit, "Frame starting from following row cannot end with current row");
    }
    spec->end.kind = FrameBoundKind::kCurrentRow;
    spec->end.pos = spec->start.pos;
  }
  // DuckDB's checks of the bounds' order (its parser's texts).
  const FrameBoundKind start = spec->start.kind, end = spec->end.kind;
  if (start == FrameBoundKind::kUnboundedFollowing) {
    return Fail(unit, "Frame start cannot be UNBOUNDED FOLLOWING");
  }
  if (end == FrameBoundKind::kUnboundedPreceding) return Fail(unit, "Frame end cannot be UNBOUNDED PRECEDING");
  if (start == FrameBoundKind::kCurrentRow && end == FrameBoundKind::kPreceding) {
    return Fail(unit, "Frame starting from current row cannot have preceding rows");
  }
  if (start == FrameBoundKind::kFollowing &&
      (end == FrameBoundKind::kPreceding || end == FrameBoundKind::kCurrentRow)) {
    return Fail(unit, "Frame starting from following row cannot have preceding rows");
  }
  return ParseFrameExclude(spec);
}

// EXCLUDE CURRENT ROW | GROUP | TIES | NO OTHERS after a frame's bounds.
bool Parser::ParseFrameExclude(WindowSpec* spec) {
  if (!IsWord(Current(), "EXCLUDE")) return true;
  Next();
  if (IsWord(Current(), "CURRENT")) {
    Next();
    if (!IsWord(Current(), "ROW")) return FailExpected("'ROW' after 'EXCLUDE CURRENT'");
    spec->exclude = FrameExclude::kCurrentRow;
  } else if (IsWord(Current(), "GROUP")) {
    spec->exclude = FrameExclude::kGroup;
  } else if (IsWord(Current(), "TIES")) {
    spec->exclude = FrameExclude::kTies;
  } else if (IsWord(Current(), "NO")) {
    Next();
    if (!IsWord(Current(), "OTHERS")) return FailExpected("'OTHERS' after 'EXCLUDE NO'");
    spec->exclude = FrameExclude::kNone;
  } else {
    return FailExpected("'CURRENT ROW', 'GROUP', 'TIES' or 'NO OTHERS' after 'EXCLUDE'");
  }
  Next();
  return true;
}

bool Parser::ParseWindowClause(SelectStatement* out) {
  do {
    NamedWindow window;
    const Token& name = Current();
    if (!ParseName(&window.name, &window.pos, "a window name")) return false;
    for (const NamedWindow& seen : out->windows) {
      if (seen.name == window.name) {
        return Fail(name, "window \"" + window.name + "\" is already defined");
      }
    }
    if (!ExpectKeyword("AS", " after the window's name")) return false;
    if (!At(TokenKind::kLeftParen)) return FailExpected("'(' after AS");
    if (!ParseWindowSpec(&window.spec)) return false;
    out->windows.push_back(std::move(window));
  } while (Accept(TokenKind::kComma));
  return true;
}

}  // namespace sql
}  // namespace laneql
