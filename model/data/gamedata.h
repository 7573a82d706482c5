// The game's static data: map, counters, tables, cards, scenarios.
// Loaded from JSON by loader.h; every reconstructed value keeps its provenance (`src`).
#pragma once

#include <QHash>
#include <QJsonArray>
#include <QJsonObject>
#include <QList>
#include <QMap>
#include <QString>
#include <QStringList>

#include <optional>

namespace wp {

enum class Side { Catholic, Protestant };

QString sideId(Side s);
std::optional<Side> sideFromId(const QString& id);

// Field name -> provenance ("rules 13.13", "derived: …", "outside: …", "reconstructed").
using Provenance = QMap<QString, QString>;

struct Area {
    QString id;
    QString name;
    int control = 0; // Control rating (3.13)
    int vp = 0;
    bool elector = false; // Electorate at game start (5.14, 5.142)
    bool germany = true;  // 2.46
    bool spanishZone = false;
    double boxLat = 0, boxLon = 0; // where the Control Box is drawn
    QList<int> cities;             // indices of the non-Independent cities of this Area
    Provenance src;
};

struct Fortress {
    int strength = 0;
    int siegeModifier = 0;
};

struct City {
    QString id;
    QString name;
    int area = -1;       // index into GameData::areas; -1 for Independent cities and France
    bool france = false; // a French city (on-map or off-map)
    int within = -1;     // Independent cities: the Area it sits in (drawing, Spanish Zone); -1 if none
    bool independent = false;
    int vp = 0;
    bool elector = false;
    std::optional<Fortress> fortress;
    bool port = false;
    bool offmap = false;
    bool spanishZone = false; // effective: own flag for Independents, else from the Area / France
    double lat = 0, lon = 0;
    QList<int> neighbours; // indices of cities joined by a pathway
    Provenance src;
};

struct Box {
    QString id;
    QString name;
    QString kind; // "up", "denmark", "sweden"
    double lat = 0, lon = 0;
    Provenance src;
};

struct Arrow {
    int box = -1;
    int city = -1;
    bool oneWay = true;
    QString src;
};

struct Pathway {
    int a = -1, b = -1;
    QString src;
};

struct Polyline {
    QString name;
    QList<QPair<double, double>> points; // lat, lon
};

// The nationalities the rules name (17.0), for the engine's hot paths: a number, not a string compare.
enum class NatCode : int8_t {
    Imperial,
    Bavarian,
    Spanish,
    Saxon,
    Protestant,
    Hungarian,
    Danish,
    Swedish,
    French,
    English,
    Other
};

struct Nationality {
    QString id;
    NatCode code = NatCode::Other; // from the id (loader)
    QString name;
    Side side = Side::Catholic;
    QString color;
    QString textColor;
    QString supplyBase;
    QList<int> supplyCities;
    Provenance src;
};

enum class UnitKind { Veteran, Mercenary, Militia };
QString unitKindId(UnitKind k);
std::optional<UnitKind> unitKindFromId(const QString& id);

struct UnitType {
    int nationality = -1;
    UnitKind kind = UnitKind::Mercenary;
    int count = 0;
    int optionalExtra = 0;
    QString optionalRule;
    int cfFull = 0, cfReduced = 0;
    int lf = 0;
    int ma = 0;
    Provenance src;
};

struct Leader {
    QString id;
    QString name;
    QString counterName; // the short name printed on the counter
    int nationality = -1;
    int activation = 0, leadership = 0, battle = 0, loss = 0;
    int stars = 0;
    int reverse = -1;    // leader printed on the back (12.42), -1 if none
    QString reverseRule; // the rule governing the back ("12.42", or "16.22a" for un-named backs)
    bool replacement = false;
    QString optionalRule;
    QString entry;
    Provenance src;
};

enum class Deck { Early, Intervention, Apocalypse };
QString deckId(Deck d);
std::optional<Deck> deckFromId(const QString& id);

enum class CardMark { None, Asterisk, Dagger };
QString cardMarkId(CardMark m);

struct Card {
    QString id;
    Side side = Side::Catholic;
    int number = 0;
    QString title;
    int value = 0;
    CardMark mark = CardMark::None;
    Deck deck = Deck::Early;
    bool combat = false;
    bool unlessDiscarded = false;
    QMap<QString, int> aid; // donor -> points
    QString event;
    QStringList rules;
    Provenance src;
};

struct CrtColumn {
    QString label;
    int min = 0;
    int max = -1; // -1: open-ended
};

struct RollBand {
    int min = 0, max = 0;
    QJsonObject result; // the table-specific outcome fields
};

struct RollTable {
    QString name;
    int rollMin = 0, rollMax = 0; // range of the modified roll covered
    QList<RollBand> bands;
    QJsonArray modifiers;
    QJsonObject extra; // other table-specific fields (e.g. peace result texts)
    Provenance src;
    const RollBand* lookup(int modifiedRoll) const;
};

struct Tables {
    QList<CrtColumn> crtColumns;
    QList<QList<int>> crtLosses; // [column][modified roll 0..11]
    Provenance crtSrc;
    RollTable siege, recruit, loot, peace;

    int crtColumnFor(int strength) const; // -1 if no column (strength 0)
    int crtLoss(int column, int modifiedRoll) const;
};

struct ScenarioUnits {
    int nationality = -1;
    UnitKind kind = UnitKind::Mercenary;
    int count = 0;   // full-strength units
    int reduced = 0; // reduced units
};

struct ScenarioStack {
    int city = -1; // index of city, or -1 when in a box
    int box = -1;
    QList<int> leaders;
    QList<ScenarioUnits> units;
    QString optionalRule;
};

struct Scenario {
    QString id;
    QString name;
    QString rule;
    int firstTurn = 1, lastTurn = 14;
    int vp = 0;
    QList<Deck> decks;
    QList<Deck> laterDecks;      // decks added during play (8.11, 8.12)
    QList<int> removedCards;     // out of the game at start (played before the scenario)
    QList<int> removedNotPlayed; // out of the game but not counted as played (P17 in Intervention)
    QList<ScenarioStack> stacks;
    QList<ScenarioStack> deployments; // forces placed by a card's printed deployment (P17 in Apocalypse)
    QStringList deploymentCards;      // the card of each deployment
    QList<int> controlAreas[2];       // [Side]
    QList<int> controlCities[2];      // [Side]
    QList<int> neutralAreas;
    QStringList aid[2];
    QStringList electors[2]; // printed; ids of Areas or cities
    QJsonObject markers;
    QJsonValue pillage;
    std::optional<Side> noPeaceOffer;
    QJsonObject victory;
    QJsonArray immediateVictory; // the "sudden" entries with "when": "immediate" (checked after every step)
    QStringList notes;
    Provenance src;
    QString file;
};

struct GameData {
    QList<Area> areas;
    QString franceName = QStringLiteral("France");
    QList<City> cities;
    QList<Box> boxes;
    QList<Arrow> arrows;
    QList<Pathway> pathways;
    QList<Polyline> seas, rivers;
    QList<Nationality> nationalities;
    QList<UnitType> unitTypes;
    QList<Leader> leaders;
    QList<Card> cards;
    Tables tables;
    QList<Scenario> scenarios;

    QString dataDir;
    QByteArray fingerprint; // SHA-256 hex over every data file

    QHash<QString, int> areaIndex, cityIndex, boxIndex, nationalityIndex, leaderIndex, cardIndex,
        scenarioIndex;

    int area(const QString& id) const { return areaIndex.value(id, -1); }
    int city(const QString& id) const { return cityIndex.value(id, -1); }
    int box(const QString& id) const { return boxIndex.value(id, -1); }
    int nationality(const QString& id) const { return nationalityIndex.value(id, -1); }
    int leader(const QString& id) const { return leaderIndex.value(id, -1); }
    int card(const QString& id) const { return cardIndex.value(id, -1); }
    const Scenario* scenario(const QString& id) const;
    const UnitType* unitType(int nationality, UnitKind kind) const;

    // Areas joined by at least one pathway between their cities.
    bool areasAdjacent(int a, int b) const;
};

} // namespace wp
