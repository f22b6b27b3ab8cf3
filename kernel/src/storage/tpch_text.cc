// The TPC-H specification's value lists and its comment text: a pool of sentences from the
// specification's grammar and word lists (clause 4.2.2), weighted so that the business words
// (packages, requests, accounts, deposits; special, pending, regular, final, ...) are common, as
// the queries' LIKE patterns ('%special%requests%') expect.
#include "src/storage/tpch_text.h"

#include <algorithm>
#include <string>

#include "src/storage/hits_random.h"

namespace laneql::tpch {
namespace {

template <size_t N>
constexpr WordList ListOf(const std::string_view (&words)[N]) {
  return WordList{words, static_cast<uint32_t>(N)};
}

const std::string_view kColourWords[] = {
    "almond",    "antique",   "aquamarine", "azure",     "beige",     "bisque",    "black",
    "blanched",  "blue",      "blush",      "brown",     "burlywood", "burnished", "chartreuse",
    "chiffon",   "chocolate", "coral",      "cornflower", "cornsilk", "cream",     "cyan",
    "dark",      "deep",      "dim",        "dodger",    "drab",      "firebrick", "floral",
    "forest",    "frosted",   "gainsboro",  "ghost",     "goldenrod", "green",     "grey",
    "honeydew",  "hot",       "indian",     "ivory",     "khaki",     "lace",      "lavender",
    "lawn",      "lemon",     "light",      "lime",      "linen",     "magenta",   "maroon",
    "medium",    "metallic",  "midnight",   "mint",      "misty",     "moccasin",  "navajo",
    "navy",      "olive",     "orange",     "orchid",    "pale",      "papaya",    "peach",
    "peru",      "pink",      "plum",       "powder",    "puff",      "purple",    "red",
    "rose",      "rosy",      "royal",      "saddle",    "salmon",    "sandy",     "seashell",
    "sienna",    "sky",       "slate",      "smoke",     "snow",      "spring",    "steel",
    "tan",       "thistle",   "tomato",     "turquoise", "violet",    "wheat",     "white",
    "yellow"};
const std::string_view kTypeSizeWords[] = {"STANDARD", "SMALL", "MEDIUM",
                                           "LARGE",    "ECONOMY", "PROMO"};
const std::string_view kTypeFinishWords[] = {"ANODIZED", "BURNISHED", "PLATED", "POLISHED",
                                             "BRUSHED"};
const std::string_view kTypeMetalWords[] = {"TIN", "NICKEL", "BRASS", "STEEL", "COPPER"};
const std::string_view kContainerSizeWords[] = {"SM", "LG", "MED", "JUMBO", "WRAP"};
const std::string_view kContainerKindWords[] = {"CASE", "BOX", "BAG", "JAR",
                                                "PKG",  "PACK", "CAN", "DRUM"};
const std::string_view kSegmentWords[] = {"AUTOMOBILE", "BUILDING", "FURNITURE", "MACHINERY",
                                          "HOUSEHOLD"};
const std::string_view kPriorityWords[] = {"1-URGENT", "2-HIGH", "3-MEDIUM", "4-NOT SPECIFIED",
                                           "5-LOW"};
const std::string_view kInstructionWords[] = {"DELIVER IN PERSON", "COLLECT COD", "NONE",
                                              "TAKE BACK RETURN"};
const std::string_view kModeWords[] = {"REG AIR", "AIR", "RAIL", "SHIP", "TRUCK", "MAIL", "FOB"};

// The grammar's word classes, each word with its weight.
struct Weighted {
  std::string_view word;
  uint32_t weight;
};
const Weighted kNouns[] = {
    {"packages", 40},  {"requests", 40},    {"accounts", 40},   {"deposits", 40},
    {"foxes", 20},     {"ideas", 20},       {"theodolites", 20}, {"pinto beans", 20},
    {"instructions", 20}, {"dependencies", 10}, {"excuses", 10}, {"platelets", 10},
    {"asymptotes", 10}, {"courts", 5},      {"dolphins", 5},    {"multipliers", 1},
    {"sauternes", 1},  {"warthogs", 1},     {"frets", 1},       {"dinos", 1},
    {"attainments", 1}, {"somas", 1},       {"Tiresias", 1},    {"patterns", 1},
    {"forges", 1},     {"braids", 1},       {"hockey players", 1}, {"frays", 1},
    {"warhorses", 1},  {"dugouts", 1},      {"notornis", 1},    {"epitaphs", 1},
    {"pearls", 1},     {"tithes", 1},       {"waters", 1},      {"orbits", 1},
    {"gifts", 1},      {"sheaves", 1},      {"depths", 1},      {"sentiments", 1},
    {"decoys", 1},     {"realms", 1},       {"pains", 1},       {"grouches", 1},
    {"escapades", 1}};
const Weighted kVerbs[] = {
    {"sleep", 20}, {"wake", 20},  {"are", 20},     {"cajole", 20},  {"haggle", 20},
    {"nag", 10},   {"use", 10},   {"boost", 10},   {"affix", 5},    {"detect", 5},
    {"integrate", 5}, {"maintain", 1}, {"nod", 1}, {"was", 1},      {"lose", 1},
    {"sublate", 1}, {"solve", 1}, {"thrash", 1},   {"promise", 1},  {"engage", 1},
    {"hinder", 1}, {"print", 1},  {"x-ray", 1},    {"breach", 1},   {"eat", 1},
    {"grow", 1},   {"impress", 1}, {"mold", 1},    {"poach", 1},    {"serve", 1},
    {"run", 1},    {"dazzle", 1}, {"snooze", 1},   {"doze", 1},     {"unwind", 1},
    {"kindle", 1}, {"play", 1},   {"hang", 1},     {"believe", 1},  {"doubt", 1}};
const Weighted kAdjectives[] = {
    {"special", 20}, {"pending", 20}, {"unusual", 20}, {"express", 20}, {"furious", 1},
    {"sly", 1},      {"careful", 1},  {"blithe", 1},   {"quick", 1},    {"fluffy", 1},
    {"slow", 1},     {"quiet", 1},    {"ruthless", 1}, {"thin", 1},     {"close", 1},
    {"dogged", 1},   {"daring", 1},   {"brave", 1},    {"stealthy", 1}, {"permanent", 1},
    {"enticing", 1}, {"idle", 1},     {"busy", 1},     {"regular", 50}, {"final", 40},
    {"ironic", 40},  {"even", 30},    {"bold", 20},    {"silent", 10}};
const Weighted kAdverbs[] = {
    {"sometimes", 1}, {"always", 1},    {"never", 1},      {"furiously", 50}, {"slyly", 50},
    {"carefully", 50}, {"blithely", 40}, {"quickly", 30},  {"fluffily", 20},  {"slowly", 1},
    {"quietly", 1},   {"ruthlessly", 1}, {"thinly", 1},    {"closely", 1},    {"doggedly", 1},
    {"daringly", 1},  {"bravely", 1},   {"stealthily", 1}, {"permanently", 1}, {"enticingly", 1},
    {"idly", 1},      {"busily", 1},    {"regularly", 1},  {"finally", 1},    {"ironically", 1},
    {"evenly", 1},    {"boldly", 1},    {"silently", 1}};
const Weighted kPrepositions[] = {
    {"about", 50},   {"above", 50},   {"according to", 50}, {"across", 50}, {"after", 50},
    {"against", 40}, {"along", 40},   {"alongside of", 30}, {"among", 30},  {"around", 20},
    {"at", 10},      {"atop", 1},     {"before", 1},        {"behind", 1},  {"beneath", 1},
    {"beside", 1},   {"besides", 1},  {"between", 1},       {"beyond", 1},  {"by", 1},
    {"despite", 1},  {"during", 1},   {"except", 1},        {"for", 1},     {"from", 1},
    {"in place of", 1}, {"inside", 1}, {"instead of", 1},   {"into", 1},    {"near", 1},
    {"of", 1},       {"on", 1},       {"outside", 1},       {"over", 1},    {"past", 1},
    {"since", 1},    {"through", 1},  {"throughout", 1},    {"to", 1},      {"toward", 1},
    {"under", 1},    {"until", 1},    {"up", 1},            {"upon", 1},    {"with", 1},
    {"within", 1},   {"without", 1}};
const Weighted kAuxiliaries[] = {
    {"do", 1},     {"may", 1},    {"might", 1},        {"shall", 1},         {"will", 1},
    {"would", 1},  {"can", 1},    {"could", 1},        {"should", 1},        {"ought to", 1},
    {"must", 1},   {"will have to", 1}, {"shall have to", 1}, {"could have to", 1},
    {"should have to", 1}, {"must have to", 1}, {"need to", 1}, {"try to", 1}};
const Weighted kTerminators[] = {{".", 50}, {";", 1}, {":", 1}, {"?", 1}, {"!", 1}, {"--", 1}};

// A counter-based stream of draws: the pool is one long sequence, so a plain counter is the
// row index.
class Draws {
 public:
  explicit Draws(uint64_t family) : family_(family) {}
  uint64_t Next() { return hits::KeyOf(family_, counter_++); }
  uint32_t Below(uint32_t n) { return hits::Below(Next(), n); }
  template <size_t N>
  std::string_view Word(const Weighted (&list)[N]) {
    uint32_t total = 0;
    for (const Weighted& w : list) total += w.weight;
    uint32_t at = Below(total);
    for (const Weighted& w : list) {
      if (at < w.weight) return w.word;
      at -= w.weight;
    }
    return list[N - 1].word;
  }

 private:
  uint64_t family_;
  uint64_t counter_ = 0;
};

// Noun phrase: noun | adjective noun | adjective, adjective noun | adverb adjective noun.
void AppendNounPhrase(Draws* d, std::string* out) {
  switch (d->Below(9)) {
    case 0: case 1:
      break;
    case 2: case 3: case 4:
      out->append(d->Word(kAdjectives)).append(" ");
      break;
    case 5: case 6:
      out->append(d->Word(kAdjectives)).append(", ").append(d->Word(kAdjectives)).append(" ");
      break;
    default:
      out->append(d->Word(kAdverbs)).append(" ").append(d->Word(kAdjectives)).append(" ");
      break;
  }
  out->append(d->Word(kNouns));
}

// Verb phrase: verb | auxiliary verb | verb adverb | auxiliary verb adverb.
void AppendVerbPhrase(Draws* d, std::string* out) {
  const uint32_t form = d->Below(4);
  if (form & 1) out->append(d->Word(kAuxiliaries)).append(" ");
  out->append(d->Word(kVerbs));
  if (form & 2) out->append(" ").append(d->Word(kAdverbs));
}

void AppendPrepositionalPhrase(Draws* d, std::string* out) {
  out->append(d->Word(kPrepositions)).append(" the ");
  AppendNounPhrase(d, out);
}

// One sentence of the grammar's five forms, then a space.
void AppendSentence(Draws* d, std::string* out) {
  const uint32_t form = d->Below(5);
  AppendNounPhrase(d, out);
  out->append(" ");
  if (form >= 3) {
    AppendPrepositionalPhrase(d, out);
    out->append(" ");
  }
  AppendVerbPhrase(d, out);
  if (form == 1 || form == 4) {
    out->append(" ");
    AppendPrepositionalPhrase(d, out);
  } else if (form == 2 || form == 3) {
    out->append(" ");
    AppendNounPhrase(d, out);
  }
  out->append(d->Word(kTerminators)).append(" ");
}

// Long enough that comments rarely repeat at SF 1, short enough to build in milliseconds.
constexpr size_t kPoolBytes = size_t{2} << 20;
constexpr uint64_t kPoolFamily = 0x7e47c0a1d5b3f921ULL;

}  // namespace

const NationSpec kNationList[kNations] = {
    {"ALGERIA", 0},    {"ARGENTINA", 1}, {"BRAZIL", 1},        {"CANADA", 1},
    {"EGYPT", 4},      {"ETHIOPIA", 0},  {"FRANCE", 3},        {"GERMANY", 3},
    {"INDIA", 2},      {"INDONESIA", 2}, {"IRAN", 4},          {"IRAQ", 4},
    {"JAPAN", 2},      {"JORDAN", 4},    {"KENYA", 0},         {"MOROCCO", 0},
    {"MOZAMBIQUE", 0}, {"PERU", 1},      {"CHINA", 2},         {"ROMANIA", 3},
    {"SAUDI ARABIA", 4}, {"VIETNAM", 2}, {"RUSSIA", 3},        {"UNITED KINGDOM", 3},
    {"UNITED STATES", 1}};
const std::string_view kRegionNames[kRegions] = {"AFRICA", "AMERICA", "ASIA", "EUROPE",
                                                 "MIDDLE EAST"};

const WordList kColours = ListOf(kColourWords);
const WordList kTypeSizes = ListOf(kTypeSizeWords);
const WordList kTypeFinishes = ListOf(kTypeFinishWords);
const WordList kTypeMetals = ListOf(kTypeMetalWords);
const WordList kContainerSizes = ListOf(kContainerSizeWords);
const WordList kContainerKinds = ListOf(kContainerKindWords);
const WordList kSegments = ListOf(kSegmentWords);
const WordList kPriorities = ListOf(kPriorityWords);
const WordList kShipInstructions = ListOf(kInstructionWords);
const WordList kShipModes = ListOf(kModeWords);

TextPool::TextPool(uint64_t seed) {
  Draws draws(hits::Mix64(seed ^ kPoolFamily));
  text_.reserve(kPoolBytes + 256);
  while (text_.size() < kPoolBytes) AppendSentence(&draws, &text_);
  text_.resize(kPoolBytes);
}

std::string_view TextPool::Cut(uint64_t h, size_t length) const {
  const uint64_t positions = text_.size() - length + 1;
  const uint64_t offset = static_cast<uint64_t>(
      (static_cast<unsigned __int128>(h) * positions) >> 64);
  return std::string_view(text_).substr(offset, length);
}

}  // namespace laneql::tpch
