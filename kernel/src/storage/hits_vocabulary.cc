// The hits generator's vocabularies. See hits_vocabulary.h.
#include "src/storage/hits_vocabulary.h"

#include <string>
#include <vector>

namespace laneql::hits {
namespace {

constexpr std::string_view kCyrillic[] = {
    "купить", "цена", "отзывы", "скачать", "бесплатно", "фото", "видео", "смотреть", "онлайн",
    "погода", "новости", "рецепт", "как", "сделать", "своими", "руками", "квартира", "аренда",
    "продажа", "автомобиль", "машина", "работа", "вакансии", "москва", "петербург", "киев",
    "минск", "новосибирск", "телефон", "ноутбук", "планшет", "игры", "фильм", "сериал", "музыка",
    "песни", "книга", "читать", "школа", "университет", "экзамен", "ответы", "карта", "маршрут",
    "билеты", "поезд", "самолет", "гостиница", "отдых", "море", "дача", "ремонт", "обои",
    "мебель", "диван", "кухня", "окна", "двери", "подарок", "цветы", "свадьба", "платье",
    "обувь", "куртка", "детские", "игрушки", "коляска", "здоровье", "лечение", "врач", "аптека",
    "диета", "спорт", "футбол", "хоккей", "результаты", "расписание", "курс", "доллара", "банк",
    "кредит", "ипотека", "налог", "документы", "паспорт", "виза", "завтра", "сегодня", "лучшие",
    "новые", "недорого", "форум", "сайт", "официальный", "магазин", "доставка", "каталог",
    "скидки", "распродажа", "поздравления", "стихи", "анекдоты", "гороскоп", "рыбалка",
    "собака", "кошка", "котята", "сад", "огород", "семена", "баня", "дом", "строительство",
    "проект", "кирпич", "краска", "зимние", "шины", "диски", "запчасти", "б/у", "частные",
    "объявления", "район", "область", "россия", "украина", "новый", "год", "2013", "июль",
};

constexpr std::string_view kLatin[] = {
    "news", "catalog", "product", "item", "view", "page", "article", "forum", "topic", "video",
    "photo", "search", "list", "category", "auto", "realty", "job", "sport", "games", "music",
    "kino", "weather", "shop", "cart", "user", "profile", "blog", "post", "comments", "index",
    "show", "detail", "download", "files", "doc", "help", "about", "contacts", "city", "region",
    "moscow", "spb", "sale", "rent", "cars", "moto", "phones", "tv", "travel", "hotels",
    "tickets", "online", "free", "android", "windows", "samsung", "nokia", "iphone", "sony",
    "mp3",
};

constexpr std::string_view kSyllables[] = {
    "ka", "ro", "mi", "na", "vo", "le", "sa", "ti", "do", "ra", "ne", "po", "gor", "mir", "dom",
    "vest", "tor", "lab", "net", "rus", "kom", "sib", "ural", "volga", "svet", "zvuk", "avto",
    "kino", "info", "torg", "gid", "plus", "master", "bank", "stroy", "med",
};

constexpr std::string_view kZones[] = {".ru", ".ru", ".ru", ".com", ".net", ".ua", ".by", ".org",
                                       ".su", ".kz", ".info", ".ru"};

// Referring sites (invented names), most common first: the first takes about 45 % of the
// external referrals, which makes it pass the > 100,000 rows filter of ClickBench Q28 even on
// a million rows.
constexpr std::string_view kExternal[] = {
    "megapoisk-katalog.ru", "social-set.com", "svezhie-vesti.ru", "forum-obo-vsem.net",
    "pochta-portal.ru", "obyavleniya-24.ru", "video-hosting.net", "blog-platforma.com",
    "spravochnik-goroda.ru", "igrovoy-mir.com", "rabota-poisk.ru", "torg-ploshchadka.ru",
};

constexpr std::string_view kModels[] = {
    "iPad", "iPhone", "A500", "N8-00", "GT-I9100", "iPod", "HTC Desire", "GT-S5830",
    "Lumia 800", "E71", "GT-P1000", "Xperia",
};

// Three counters above 10 % of the rows (ClickBench Q27 keeps counters with > 100,000 rows,
// which on a million rows means > 10 %), then a few dozen medium ones. CounterID 62 is the
// one ClickBench Q36-Q42 filter on.
constexpr HeavyCounter kHeavy[] = {
    {62, 160000, "gorodskoy-portal.ru", 0},
    {1143050, 116000, "avto-rynok.ru", 4},
    {731962, 108000, "kino-afisha.net", 0},
    {842, 14000, "pogoda-segodnya.ru", 1},
    {1296, 13000, "rabota-gorod.ru", 4},
    {3922, 12500, "recepty-doma.ru", 0},
    {11945, 12000, "igry-online.com", 8},
    {18405, 11500, "znakomstva-ryadom.net", 3},
    {24592, 11000, "novosti-regiona.ru", 1},
    {31337, 10500, "dosug-afisha.ru", 6},
    {40120, 10000, "sad-ogorod.ru", 0},
    {51010, 9500, "stroy-forum.ru", 8},
    {62800, 9000, "detskiy-mir-shop.ru", 5},
    {77001, 8500, "moda-stil.com", 2},
    {80512, 8000, "turizm-otdyh.ru", 10},
    {93114, 7500, "sport-arena.ru", 1},
    {101202, 7000, "muzyka-besplatno.net", 0},
    {115003, 6800, "kredit-bank.ru", 9},
    {120991, 6600, "avto-zapchasti.ru", 14},
    {134078, 6400, "kvartiry-arenda.ru", 7},
    {148222, 6200, "medicina-zdorovie.ru", 3},
    {150505, 6000, "telefony-ceny.ru", 2},
    {162130, 5800, "knigi-chitat.ru", 0},
    {171717, 5600, "ohota-rybalka.ru", 4},
    {188999, 5400, "goroskop-sonnik.ru", 1},
    {199201, 5200, "mebel-kuhni.ru", 6},
    {204000, 5000, "video-prikoly.net", 0},
    {219876, 4800, "shkola-ekzamen.ru", 3},
    {228500, 4600, "foto-galereya.com", 2},
    {236447, 4400, "semya-deti.ru", 1},
};

std::vector<std::string>* EncodeAll() {
  auto* encoded = new std::vector<std::string>();
  static const char kHex[] = "0123456789ABCDEF";
  for (std::string_view word : kCyrillic) {
    std::string out;
    for (unsigned char c : word) {
      if ((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9')) {
        out.push_back(static_cast<char>(c));
      } else {
        out.push_back('%');
        out.push_back(kHex[c >> 4]);
        out.push_back(kHex[c & 15]);
      }
    }
    encoded->push_back(std::move(out));
  }
  return encoded;
}

template <size_t N>
WordList ListOf(const std::string_view (&words)[N]) {
  return WordList{words, N};
}

}  // namespace

WordList CyrillicWords() { return ListOf(kCyrillic); }
WordList CyrillicEncoded() {
  // Built once on first use (thread-safe static initialisation); views into strings that live
  // for the whole program.
  static const std::string_view* const kViews = [] {
    static const std::vector<std::string>* const encoded = EncodeAll();
    auto* views = new std::string_view[encoded->size()];
    for (size_t i = 0; i < encoded->size(); ++i) views[i] = (*encoded)[i];
    return views;
  }();
  return WordList{kViews, sizeof(kCyrillic) / sizeof(kCyrillic[0])};
}
WordList LatinWords() { return ListOf(kLatin); }
WordList DomainSyllables() { return ListOf(kSyllables); }
WordList DomainZones() { return ListOf(kZones); }
WordList ExternalSites() { return ListOf(kExternal); }
WordList MobileModels() { return ListOf(kModels); }

const HeavyCounter* HeavyCounters(size_t* count) {
  *count = sizeof(kHeavy) / sizeof(kHeavy[0]);
  return kHeavy;
}

}  // namespace laneql::hits
