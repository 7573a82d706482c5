// The evaluation function and the priority list without look-ahead (fastChoice), shared by the priority
// bot, the search bot's play-outs and the tests. docs/ai.md lists the priorities in words.
#include "ai/bot.h"

#include "rules/economy.h"
#include "rules/internal.h"

#include <QHash>
#include <QJsonArray>
#include <QJsonObject>

#include <algorithm>
#include <cmath>
#include <deque>
#include <mutex>

namespace wp::ai {

using namespace wp::rules;

namespace {

// ---------------------------------------------------------------- map knowledge

// One value per data set, built once by `build` (thread-safe; the search threads share it).
template <class T, class Build> const T& perDataSet(const GameData& d, Build build) {
    static std::mutex mutex;
    static QHash<const GameData*, std::shared_ptr<T>> cache;
    std::lock_guard<std::mutex> lock(mutex);
    auto it = cache.find(&d);
    if (it != cache.end())
        return **it;
    auto t = std::make_shared<T>(build());
    cache.insert(&d, t);
    return *t;
}

// Spaces by pathways (boxes left out) from the nearest of `sources` (each at `start` spaces) to every
// city, -1 where none leads; a path goes on through a city only if `passable(city)` (a source always).
template <class Passable>
std::vector<int8_t> spacesFrom(const GameData& d, const std::vector<int>& sources, int start,
                               Passable passable) {
    const size_t n = static_cast<size_t>(d.cities.size());
    std::vector<int8_t> out(n, -1);
    std::deque<int> q;
    for (int c : sources)
        if (c >= 0 && static_cast<size_t>(c) < n && out[static_cast<size_t>(c)] < 0) {
            out[static_cast<size_t>(c)] = static_cast<int8_t>(start);
            q.push_back(c);
        }
    while (!q.empty()) {
        const int c = q.front();
        q.pop_front();
        const int dc = out[static_cast<size_t>(c)];
        if (dc >= 100 || (dc > start && !passable(c)))
            continue;
        for (int nb : d.cities[c].neighbours)
            if (out[static_cast<size_t>(nb)] < 0) {
                out[static_cast<size_t>(nb)] = static_cast<int8_t>(dc + 1);
                q.push_back(nb);
            }
    }
    return out;
}

// Shortest path lengths between cities by pathways (boxes left out), computed once per data set.
struct Distances {
    int n = 0;
    std::vector<int8_t> d; // n * n, -1 unreachable
    int at(int a, int b) const { return d[static_cast<size_t>(a) * n + b]; }
};

const Distances& distances(const GameData& data) {
    return perDataSet<Distances>(data, [&data] {
        Distances t;
        t.n = static_cast<int>(data.cities.size());
        t.d.reserve(static_cast<size_t>(t.n) * t.n);
        for (int a = 0; a < t.n; ++a) {
            const std::vector<int8_t> row = spacesFrom(data, {a}, 0, [](int) { return true; });
            t.d.insert(t.d.end(), row.begin(), row.end());
        }
        return t;
    });
}

struct KeyPlaces {
    int vienna = -1, munich = -1, brussels = -1;
    int austria = -1, bavaria = -1, spanishNl = -1;
};

KeyPlaces findKeyPlaces(const GameData& d) {
    KeyPlaces k;
    for (int i = 0; i < d.cities.size(); ++i) {
        const QString& id = d.cities[i].id;
        if (id == QLatin1String("vienna"))
            k.vienna = i;
        else if (id == QLatin1String("munich"))
            k.munich = i;
        else if (id == QLatin1String("brussels"))
            k.brussels = i;
    }
    for (int i = 0; i < d.areas.size(); ++i) {
        const QString& id = d.areas[i].id;
        if (id == QLatin1String("austria"))
            k.austria = i;
        else if (id == QLatin1String("bavaria"))
            k.bavaria = i;
        else if (id == QLatin1String("spanish-netherlands"))
            k.spanishNl = i;
    }
    return k;
}

// Found by id once per data set (the play-outs ask for them at every step).
const KeyPlaces& keyPlaces(const GameData& d) {
    return perDataSet<KeyPlaces>(d, [&d] { return findKeyPlaces(d); });
}

// What the search bot's campaign plan needs to know (docs/ai.md, "the campaign plan"): the Dutch War
// cards, the United Provinces box and how far each city is from it (16.21), per data set.
struct Campaign {
    int c3 = -1, c4 = -1, c6 = -1, c11 = -1, c12 = -1, c18 = -1;
    int p25 = -1, p26 = -1, p27 = -1; // the Protestant's Dutch War events (16.12)
    int lowerPalatinate = -1, bavaria = -1;
    int up = -1; // the UP box index
    int spanish = -1;
    std::vector<int8_t> upDist; // per city: spaces to a city with a "To UP" arrow, + 1 (-1: none)
};

const Campaign& campaign(const GameData& d) {
    return perDataSet<Campaign>(d, [&d] {
        Campaign c;
        c.c3 = d.card(QStringLiteral("C3"));
        c.c4 = d.card(QStringLiteral("C4"));
        c.c6 = d.card(QStringLiteral("C6"));
        c.c11 = d.card(QStringLiteral("C11"));
        c.c12 = d.card(QStringLiteral("C12"));
        c.c18 = d.card(QStringLiteral("C18"));
        c.p25 = d.card(QStringLiteral("P25"));
        c.p26 = d.card(QStringLiteral("P26"));
        c.p27 = d.card(QStringLiteral("P27"));
        c.lowerPalatinate = d.area(QStringLiteral("lower-palatinate"));
        c.bavaria = d.area(QStringLiteral("bavaria"));
        c.up = d.box(QStringLiteral("up"));
        c.spanish = d.nationality(QStringLiteral("spanish"));
        std::vector<int> exits;
        for (const Arrow& a : d.arrows)
            if (a.box == c.up)
                exits.push_back(a.city);
        c.upDist = spacesFrom(d, exits, 1, [](int) { return true; });
        return c;
    });
}

bool isSpanishLeader(const GameData& d, const Campaign& cp, int leader) {
    return leader >= 0 && leader < d.leaders.size() && d.leaders[leader].nationality == cp.spanish;
}

// 5.15: Spinola's army (a Spanish leader and 3 Spanish units) is in the United Provinces.
bool spinolaArmyInUp(const GameData& d, const GameState& s, const Campaign& cp) {
    if (cp.up < 0)
        return false;
    const int16_t loc = static_cast<int16_t>(kBoxBase + cp.up);
    int spanish = 0;
    bool leader = false;
    for (size_t u = 0; u < s.units.size(); ++u)
        if (s.units[u].loc == loc && s.units[u].steps > 0 &&
            d.unitTypes[s.units[u].type].nationality == cp.spanish)
            ++spanish;
    for (size_t l = 0; l < s.leaders.size(); ++l)
        if (s.leaders[l].loc == loc && s.leaders[l].status == LeaderStatus::InPlay &&
            isSpanishLeader(d, cp, static_cast<int>(l)))
            leader = true;
    return leader && spanish >= 3;
}

// How urgent the 5.15 march to the UP is: 0 while the Intervention (8.11: turn 7 or 30 VP) is far, 1 in
// the turn before it; 0 once the penalty is settled or the army is there.
double spinolaUrgency(const GameData& d, const GameState& s, const Campaign& cp) {
    if (s.spinolaPenaltyDone || s.interventionAdded || cp.up < 0 || spinolaArmyInUp(d, s, cp))
        return 0;
    if (s.vp >= 27)
        return 1;
    return std::clamp((s.turn - 2) / 4.0, 0.0, 1.0);
}

// The Spanish stack of `leader` can become Spinola's army in the UP (a Spanish leader, 3 Spanish units
// with him, the Dutch War not over).
bool canFormSpinolaArmy(const GameData& d, const GameState& s, const Campaign& cp, int leader) {
    if (!isSpanishLeader(d, cp, leader) || s.dutchWar >= 5 || s.dutchWar <= -3)
        return false;
    const int16_t loc = s.leaders[static_cast<size_t>(leader)].loc;
    if (!isCity(loc) || cp.upDist[static_cast<size_t>(loc)] < 0)
        return false;
    int spanish = 0;
    for (size_t u = 0; u < s.units.size(); ++u)
        if (s.units[u].loc == loc && s.units[u].steps > 0 &&
            d.unitTypes[s.units[u].type].nationality == cp.spanish)
            ++spanish;
    return spanish >= 3;
}

// Combat strength per city and side, outside and inside the fortress.
struct Forces {
    std::vector<int> out[2], in[2];
    int total[2] = {0, 0};
    std::vector<int> held[2];    // per Area: the cities each side controls (3.13)
    std::vector<int8_t> control; // per city: who controls it (effectiveCityControl, 3.13)
    Forces(const GameData& d, const GameState& s) {
        const size_t n = static_cast<size_t>(d.cities.size());
        for (int side = 0; side < 2; ++side)
            held[side].assign(static_cast<size_t>(d.areas.size()), 0);
        control.resize(n);
        for (qsizetype c = 0; c < d.cities.size(); ++c) {
            const int ar = d.cities[c].area;
            const int ctl = effectiveCityControl(d, s, static_cast<int>(c));
            control[static_cast<size_t>(c)] = static_cast<int8_t>(ctl);
            if (ar >= 0 && (ctl == kCath || ctl == kProt))
                ++held[ctl][static_cast<size_t>(ar)];
        }
        for (int side = 0; side < 2; ++side) {
            out[side].assign(n, 0);
            in[side].assign(n, 0);
        }
        for (size_t u = 0; u < s.units.size(); ++u) {
            const UnitState& us = s.units[u];
            if (us.steps == 0 || us.loc < 0)
                continue;
            const int side = unitSide(d, s, static_cast<int>(u));
            if (side < 0 || side > 1)
                continue;
            const int cf = unitCf(d, s, static_cast<int>(u));
            total[side] += cf;
            if (isCity(us.loc) && static_cast<size_t>(us.loc) < n)
                ((us.flags & kInside) ? in[side] : out[side])[static_cast<size_t>(us.loc)] += cf;
        }
    }
};

bool isKeyCity(const KeyPlaces& k, int city) {
    return city == k.vienna || city == k.munich || city == k.brussels;
}

// How much `side` wants to go to `city` with a stack of strength `cf` (0: not at all).
double cityValue(const GameData& d, const GameState& s, const Forces& f, const KeyPlaces& k, int side,
                 int city, int cf) {
    const City& c = d.cities[city];
    if (c.offmap)
        return 0;
    if (c.area >= 0 && s.areas[c.area].neutral)
        return 0; // 5.13: violating neutrality costs VP
    const int opp = other(side);
    const int ctl = f.control[static_cast<size_t>(city)];
    double v = 0;
    if (ctl == opp)
        v = 2 + c.vp * 3 + (c.elector ? 5 : 0) + (isKeyCity(k, city) ? 6 : 0);
    else if (ctl == kNone)
        v = 1 + c.vp * 2 + (c.elector ? 3 : 0);
    // 3.13: a city that brings an Area within reach of its Control Rating is worth part of the Area's VP
    if (ctl != side && c.area >= 0 && s.areas[static_cast<size_t>(c.area)].control != side) {
        const Area& ar = d.areas[c.area];
        const int need = std::max(1, ar.control - f.held[side][static_cast<size_t>(c.area)]);
        v += (ar.vp * 3.0 + (isElectorArea(d, s, c.area) ? 4 : 0)) / need; // 5.142: the marker, not the print
    }
    // the Areas the campaign's Catholic victory needs (5.22): the Catholic restores them, the Protestant
    // denies them
    if (c.area >= 0 && ctl != side && (c.area == k.austria || c.area == k.bavaria || c.area == k.spanishNl))
        v += side == kCath ? 8 : 3;
    const int enemy = f.out[opp][static_cast<size_t>(city)];
    if (enemy > 0) {
        if (cf * 2 < enemy * 3)
            return 0; // too strong
        v += 3 + enemy * 0.4;
    }
    if (ctl == opp && c.fortress && f.in[opp][static_cast<size_t>(city)] > cf)
        return 0;
    // own key cities under threat: defend them
    if (ctl == side && (isKeyCity(k, city) || c.elector)) {
        int threat = 0;
        for (int nb : c.neighbours)
            threat += f.out[opp][static_cast<size_t>(nb)];
        if (threat > f.out[side][static_cast<size_t>(city)] + f.in[side][static_cast<size_t>(city)])
            v = std::max(v, 4.0 + c.vp * 2);
    }
    return v;
}

struct Target {
    int city = -1;
    double score = 0;
    // the campaign plan: spaces to `city` by paths that avoid enemy armies the stack does not outnumber
    // 1.2:1 and Neutral Areas (-1: no such path); null for the priority list (its distances ignore both)
    const std::vector<int8_t>* route = nullptr;
};

// Spaces from every city to `target` for a stack of strength `cf` of `side` that may not pass through a
// city holding an enemy army it does not outnumber 1.2:1 nor through a city of a Neutral Area (5.13: a VP
// to the enemy); it may end in the target itself.
std::vector<int8_t> routeTo(const GameData& d, const GameState& s, const Forces& f, int side, int target,
                            int cf) {
    const int opp = other(side);
    return spacesFrom(d, {target}, 0, [&](int c) {
        const int enemy = f.out[opp][static_cast<size_t>(c)];
        if (enemy > 0 && cf * 10 < enemy * 12)
            return false; // an army it does not outnumber
        const int ar = d.cities[c].area;
        return ar < 0 || d.cities[c].independent || !s.areas[static_cast<size_t>(ar)].neutral; // 5.13
    });
}

Target bestTarget(const GameData& d, const GameState& s, const Forces& f, const KeyPlaces& k, int side,
                  int at, int cf) {
    Target t;
    if (!isCity(static_cast<int16_t>(at)) || cf <= 0)
        return t;
    const Distances& dist = distances(d);
    for (int c = 0; c < dist.n; ++c) {
        const int dd = dist.at(at, c);
        if (dd < 0 || dd > 10)
            continue;
        const double v = cityValue(d, s, f, k, side, c, cf);
        if (v <= 0)
            continue;
        const double score = v / (1.0 + dd);
        if (score > t.score) {
            t.score = score;
            t.city = c;
        }
    }
    return t;
}

int stackCf(const GameData& d, const GameState& s, const std::vector<int16_t>& units) {
    int cf = 0;
    for (int16_t u : units)
        cf += unitCf(d, s, u);
    return cf;
}

int leaderStackCf(const GameData& d, const GameState& s, int leader, int side) {
    const int16_t loc = s.leaders[static_cast<size_t>(leader)].loc;
    int cf = 0;
    for (size_t u = 0; u < s.units.size(); ++u)
        if (s.units[u].loc == loc && s.units[u].steps > 0 && unitSide(d, s, static_cast<int>(u)) == side)
            cf += unitCf(d, s, static_cast<int>(u));
    return cf;
}

QString placeName(const GameData& d, int loc) {
    return cityName(d, loc);
}

// Cards whose event a scenario's final victory test requires of a side ("cardPlayed": 18.14's Edict of
// Restitution), read from the scenario's victory conditions.
struct ScenarioGoals {
    std::vector<std::pair<int, int>> cardsNeeded; // (side, card index)
};

void collectCards(const GameData& d, const QJsonValue& test, int side, ScenarioGoals& g) {
    if (test.isObject()) {
        const QJsonObject o = test.toObject();
        for (auto it = o.begin(); it != o.end(); ++it) {
            if (it.key() == QLatin1String("cardPlayed")) {
                const int c = d.card(it.value().toString());
                if (c >= 0)
                    g.cardsNeeded.emplace_back(side, c);
            } else if (it.key() == QLatin1String("all")) {
                collectCards(d, it.value(), side, g);
            }
        }
    } else if (test.isArray()) {
        for (const QJsonValue& v : test.toArray())
            collectCards(d, v, side, g);
    }
}

const ScenarioGoals& scenarioGoals(const GameData& d, const QString& scenario) {
    static std::mutex mutex;
    static QHash<QString, std::shared_ptr<ScenarioGoals>> cache;
    std::lock_guard<std::mutex> lock(mutex);
    const QString key = QString::number(reinterpret_cast<quintptr>(&d)) + QLatin1Char('/') + scenario;
    auto it = cache.find(key);
    if (it != cache.end())
        return **it;
    auto g = std::make_shared<ScenarioGoals>();
    if (const Scenario* sc = d.scenario(scenario))
        for (const QJsonValue& v : sc->victory.value(QStringLiteral("final")).toArray()) {
            const QJsonObject o = v.toObject();
            const QString w = o.value(QStringLiteral("winner")).toString();
            if (w == QLatin1String("catholic") || w == QLatin1String("protestant"))
                collectCards(d, o.value(QStringLiteral("test")),
                             w == QLatin1String("catholic") ? kCath : kProt, *g);
        }
    cache.insert(key, g);
    return *g;
}

} // namespace

// ---------------------------------------------------------------- evaluation

double keyCitiesTerm(const GameData& d, const GameState& s) {
    const KeyPlaces& k = keyPlaces(d);
    double v = 0;
    int protKeys = 0;
    for (int c : {k.vienna, k.munich, k.brussels})
        if (c >= 0 && effectiveCityControl(d, s, c) == kProt) {
            v -= 4;
            ++protKeys;
        }
    return protKeys == 3 ? v - 60 : v;
}

double wallensteinTerm(const GameState& s) {
    if (s.wallensteinTrack < 12)
        return 0;
    const double over = s.wallensteinTrack - 11;
    return -over * over * 0.8; // 5.21: the Protestant wins at 20
}

double evaluate(const GameData& d, const GameState& s, int side) {
    double v = 0; // the Catholic's point of view
    if (s.gameOver) {
        v = s.winner == kCath ? 500 : s.winner == kProt ? -500 : (s.vp - 21) * 0.2;
        return side == kCath ? v : -v;
    }
    v = s.vp;
    const Forces f(d, s);
    v += 0.3 * (f.total[kCath] - f.total[kProt]);
    for (size_t l = 0; l < s.leaders.size(); ++l)
        if (s.leaders[l].status == LeaderStatus::InPlay) {
            const int ls = leaderSide(d, s, static_cast<int>(l));
            const double w = 0.5 + 0.5 * d.leaders[static_cast<qsizetype>(l)].stars;
            v += ls == kCath ? w : ls == kProt ? -w : 0;
        }
    const KeyPlaces& k = keyPlaces(d);
    v += keyCitiesTerm(d, s);
    // 5.22 (campaign): the Catholic needs Austria, Bavaria and the Spanish Netherlands at the end.
    const double keyWeight = s.turn >= s.lastTurn - 2 ? 6 : 2;
    for (int a : {k.austria, k.bavaria, k.spanishNl}) {
        if (a < 0)
            continue;
        const int ctl = s.areas[static_cast<size_t>(a)].control;
        v += ctl == kCath ? keyWeight : ctl == kProt ? -keyWeight - 1 : -1;
    }
    // a card event the scenario's victory needs (18.14: C6 in the Early War)
    for (const auto& [needer, card] : scenarioGoals(d, s.scenario).cardsNeeded)
        if (static_cast<size_t>(card) < s.eventPlayed.size() && s.eventPlayed[static_cast<size_t>(card)])
            v += needer == kCath ? 10 : -10;
    v += wallensteinTerm(s);
    v += 0.3 * (s.aidPoints[kCath] - s.aidPoints[kProt]);
    for (size_t c = 0; c < s.cities.size(); ++c) {
        const CityState& cs = s.cities[c];
        if (cs.siege > 0 && (cs.sieger == kCath || cs.sieger == kProt)) {
            const double w = 0.3 * cs.siege * (1 + d.cities[static_cast<qsizetype>(c)].vp);
            v += cs.sieger == kCath ? w : -w;
        }
    }
    return side == kCath ? v : -v;
}

// ---------------------------------------------------------------- the learned value's features

const std::vector<QString>& valueFeatureNames() {
    static const std::vector<QString> names{
        QStringLiteral("one"),         QStringLiteral("vp"),         QStringLiteral("cf"),
        QStringLiteral("leaders"),     QStringLiteral("electors"),   QStringLiteral("austria"),
        QStringLiteral("bavaria"),     QStringLiteral("spanish-nl"), QStringLiteral("areas"),
        QStringLiteral("wallenstein"), QStringLiteral("aid"),        QStringLiteral("sieges"),
        QStringLiteral("dutch-war"),   QStringLiteral("spinola"),    QStringLiteral("france"),
        QStringLiteral("sweden"),      QStringLiteral("denmark"),    QStringLiteral("threat"),
        QStringLiteral("rounds")};
    return names;
}

std::vector<double> valueFeatures(const GameData& d, const GameState& s) {
    std::vector<double> f;
    f.reserve(valueFeatureNames().size());
    auto signOf = [](int side) { return side == kCath ? 1.0 : side == kProt ? -1.0 : 0.0; };
    f.push_back(1);
    f.push_back(s.vp);
    const Forces fo(d, s);
    f.push_back(fo.total[kCath] - fo.total[kProt]);
    double leaders = 0;
    for (size_t l = 0; l < s.leaders.size(); ++l)
        if (s.leaders[l].status == LeaderStatus::InPlay)
            leaders += signOf(leaderSide(d, s, static_cast<int>(l))) *
                       (1 + d.leaders[static_cast<qsizetype>(l)].stars);
    f.push_back(leaders);
    f.push_back(electorsControlled(d, s, kCath) - electorsControlled(d, s, kProt));
    const KeyPlaces& k = keyPlaces(d);
    for (int a : {k.austria, k.bavaria, k.spanishNl})
        f.push_back(a >= 0 ? signOf(s.areas[static_cast<size_t>(a)].control) : 0.0);
    double areas = 0;
    for (const AreaState& a : s.areas)
        areas += signOf(a.control);
    f.push_back(areas);
    f.push_back(s.wallensteinTrack);
    f.push_back(s.aidPoints[kCath] - s.aidPoints[kProt]);
    double sieges = 0;
    for (size_t c = 0; c < s.cities.size(); ++c) {
        const CityState& cs = s.cities[c];
        if (cs.siege > 0)
            sieges += signOf(cs.sieger) * cs.siege * (1 + d.cities[static_cast<qsizetype>(c)].vp);
    }
    f.push_back(sieges);
    f.push_back(s.dutchWar);
    f.push_back(spinolaUrgency(d, s, campaign(d)));
    f.push_back(s.franceInWar);
    f.push_back(s.swedenInWar);
    f.push_back(s.denmarkInWar);
    f.push_back(electorThreat(d, s, kCath));
    f.push_back((s.roundsUsed[kCath] + s.roundsUsed[kProt]) / 12.0);
    return f;
}

int upObjective(const GameData& d, const GameState& s, int leader, int side) {
    const Campaign& cp = campaign(d);
    if (side != kCath || spinolaUrgency(d, s, cp) < 0.5 || !canFormSpinolaArmy(d, s, cp, leader))
        return -1;
    return kBoxBase + cp.up;
}

double campaignTerms(const GameData& d, const GameState& s, int side) {
    if (s.gameOver)
        return 0;
    const Campaign& cp = campaign(d);
    double v = 0; // the Catholic's point of view
    // 5.15: -3 VP when the Intervention cards come in without Spinola's army in the UP
    v -= 3 * spinolaUrgency(d, s, cp);
    // 5.141: every Elector held is a margin for the majority (its +-2 VP change hands with the fourth)
    v += 0.5 * (electorsControlled(d, s, kCath) - electorsControlled(d, s, kProt));
    // 16.13: the Dutch War track's boxes still to be reached (+2 VP at +2 and at +4, -3 VP at -3), each
    // worth half as much per box it is away; with Spinola's army in the UP each C3/C4 in the Catholic's
    // own hand counts as a box already moved (16.25: it opens a later turn and moves the track)
    if (s.dutchWar < 5 && s.dutchWar > -3) {
        auto reach = [](int boxes) { return boxes <= 0 ? 1.0 : std::pow(0.5, boxes); };
        int up = s.dutchWar;
        if (side == kCath && spinolaArmyInUp(d, s, cp)) // the Protestant does not see the hand
            for (int16_t c : s.hand[kCath])
                up += c == cp.c3 || c == cp.c4;
        if (!(s.dutchWarVpAwarded & 1))
            v += 2 * reach(2 - up);
        if (!(s.dutchWarVpAwarded & 2))
            v += 2 * reach(4 - up);
        if (!(s.dutchWarVpAwarded & 4))
            v -= 3 * reach(s.dutchWar + 3);
    }
    return side == kCath ? v : -v;
}

// ---------------------------------------------------------------- the priority list without look-ahead

namespace {

// A reason's text, formatted only when it is asked for: the play-outs score every legal action at every
// step and read no reason (the formatting took a tenth of the search's time).
class Why {
  public:
    Why(bool on, const char* text) : m_on(on) {
        if (on)
            m_text = QString::fromUtf8(text);
    }
    template <class... Args> Why arg(Args&&... args) && {
        if (m_on)
            m_text = m_text.arg(std::forward<Args>(args)...);
        return std::move(*this);
    }
    operator QString() && { return std::move(m_text); }

  private:
    bool m_on;
    QString m_text;
};

struct Scored {
    double score = -1e9;
    QString why;
};

// The cost in strength of a loss allocation (12.31): steps times the strength each step is worth, and a
// unit eliminated counts one more.
double lossCost(const GameData& d, const GameState& s, const Action& a) {
    double cost = 0;
    for (size_t i = 0; i < a.list.size(); ++i) {
        const int u = a.list[i];
        if (u < 0 || static_cast<size_t>(u) >= s.units.size())
            continue;
        const int k = i < a.counts.size() ? a.counts[i] : 1;
        const UnitType& t = d.unitTypes[s.units[static_cast<size_t>(u)].type];
        const int steps = s.units[static_cast<size_t>(u)].steps;
        if (k >= steps)
            cost += unitCf(d, s, u) + 1.5 + (t.kind == UnitKind::Veteran ? 1 : 0);
        else
            cost += (t.cfFull - t.cfReduced) * k;
    }
    return cost;
}

// The campaign plan's card-round preferences (the search bot's side, docs/ai.md). The Catholic: the Dutch
// War events (16.25 C3/C4 as the turn's first card, C18), the Bavarian Elector (C12, 5.142), the Edict's
// 2 VP (C6), Spinola's army to the UP before the Intervention (5.15: C11, or an activation towards the
// UP). The Protestant: his Dutch War events (P25-P27). Returns false when it has no opinion.
bool campaignCardRound(const GameData& d, const GameState& s, int side, const Action& a, Scored& r,
                       bool explain) {
    if (a.kind != ActionKind::PlayCard)
        return false;
    const Campaign& cp = campaign(d);
    const int card = a.card;
    if (side == kProt) {
        // the Dutch War track down towards the -3 box (16.13: -3 VP) and away from the Catholic's awards
        if (a.use == CardUse::Event && (card == cp.p25 || card == cp.p26 || card == cp.p27)) {
            r = {150, Why(explain, "event %1: the Dutch War track down (16.13: -3 VP at -3)")
                          .arg(d.cards[card].id)};
            return true;
        }
        return false;
    }
    if (a.use == CardUse::Event) {
        if (card == cp.c3 || card == cp.c4 || card == cp.c18) {
            r = {200, Why(explain, "event %1: the Dutch War track up (16.13: +2 VP at +2 and at +4)")
                          .arg(d.cards[card].id)};
            return true;
        }
        // C12 (5.142): the Elector moves from the Lower Palatinate to Bavaria; worth it when that gives the
        // Catholic an Elector more than the Protestant keeps
        if (card == cp.c12 && cp.lowerPalatinate >= 0 && cp.bavaria >= 0 &&
            s.areas[static_cast<size_t>(cp.bavaria)].control == kCath &&
            s.areas[static_cast<size_t>(cp.lowerPalatinate)].control != kCath) {
            r = {150, QStringLiteral("event C12: the Bavarian Elector (5.142), a margin for the majority")};
            return true;
        }
        if (card == cp.c6) {
            r = {160, QStringLiteral("event C6: the Edict of Restitution's 2 VP")};
            return true;
        }
        if (card == cp.c11 && spinolaUrgency(d, s, cp) >= 0.5) {
            r = {180, QStringLiteral("event C11: Spinola's army to the UP before the Intervention (5.15)")};
            return true;
        }
        return false;
    }
    // C3/C4 are kept for their event while Spinola's army is in the UP: each opens a later turn (16.25)
    if ((card == cp.c3 || card == cp.c4) && s.dutchWar < 5 && s.dutchWar > -3 && spinolaArmyInUp(d, s, cp)) {
        r = {1, Why(explain, "%1 as %2 last: kept to open a turn as the event (16.25)")
                    .arg(d.cards[card].id, cardUseName(a.use))};
        return true;
    }
    if (a.use == CardUse::Act && s.spinolaInUp && isBox(s.leaders[static_cast<size_t>(a.target)].loc)) {
        r = {-5, Why(explain, "activate %1: Spinola's army never leaves the UP (16.24)")
                     .arg(leaderName(d, a.target))};
        return true;
    }
    if (a.use == CardUse::Act && spinolaUrgency(d, s, cp) >= 0.75 && canFormSpinolaArmy(d, s, cp, a.target)) {
        r = {170 - d.cards[card].value * 1.5,
             Why(explain, "activate %1 towards the United Provinces (5.15: -3 VP at the Intervention)")
                 .arg(leaderName(d, a.target))};
        return true;
    }
    return false;
}

// A leader's stack strength and the priority list's objective for it (bestTarget), worked out once per
// scoring of a card round: every card's ACT of the same leader has the same.
struct LeaderTarget {
    int leader;
    int cf;
    Target target;
};

Scored scoreTurn(const GameData& d, const GameState& s, const Forces& f, const KeyPlaces& k, int side,
                 const Action& a, bool plan, bool explain, std::vector<LeaderTarget>& leaderTargets) {
    Scored r;
    const int opp = other(side);
    if (plan && campaignCardRound(d, s, side, a, r, explain))
        return r;
    switch (a.kind) {
    case ActionKind::PlayCard: {
        const Card& card = d.cards[a.card];
        switch (a.use) {
        case CardUse::Act: {
            auto known = std::find_if(leaderTargets.begin(), leaderTargets.end(),
                                      [&a](const LeaderTarget& m) { return m.leader == a.target; });
            if (known == leaderTargets.end()) {
                const int stack = leaderStackCf(d, s, a.target, side);
                leaderTargets.push_back(
                    {a.target, stack,
                     bestTarget(d, s, f, k, side, s.leaders[static_cast<size_t>(a.target)].loc, stack)});
                known = leaderTargets.end() - 1;
            }
            const int cf = known->cf;
            const Target& t = known->target;
            r.score = (cf > 0 ? 30 + 10 * t.score + 0.2 * cf : 4) - card.value * 1.5;
            r.why = t.city >= 0 ? Why(explain, "activate %1 (%2 CF) towards %3")
                                      .arg(leaderName(d, a.target))
                                      .arg(cf)
                                      .arg(placeName(d, t.city))
                                : Why(explain, "activate %1").arg(leaderName(d, a.target));
            break;
        }
        case CardUse::Rec:
            r.score = 20 + card.value * 3 + (f.total[side] < f.total[opp] ? 10 : 0);
            r.why = Why(explain, "recruit with %1 (strength %2 against %3)")
                        .arg(card.id)
                        .arg(f.total[side])
                        .arg(f.total[opp]);
            break;
        case CardUse::Aid: {
            const int pts = aidCardValue(d, s, side, a.card);
            r.score = 8 + pts * 4;
            r.why = Why(explain, "foreign aid from %1 (%2 points to pay the armies)").arg(card.id).arg(pts);
            break;
        }
        case CardUse::Event:
            r.score = 18 + (card.value <= 1 ? 6 : 0) + (card.combat ? -8 : 0);
            r.why = Why(explain, "event %1 %2").arg(card.id, card.title);
            break;
        default: // the optional rules' uses (19.5, 19.11): judged by the look-ahead alone
            r.score = 6;
            r.why = Why(explain, "%1 as %2").arg(card.id, cardUseName(a.use));
            break;
        }
        break;
    }
    case ActionKind::FreeAction:
        r.score = 2;
        r.why = QStringLiteral("free action");
        break;
    case ActionKind::OfferPeace:
        r.score = -10;
        r.why = QStringLiteral("offer peace");
        break;
    case ActionKind::Wallenstein: {
        // 7.2: dismiss him before his track gives the Protestant the game (5.21); recall him when it is low.
        const int track = s.wallensteinTrack;
        if (a.target == 0)
            r = {track >= 13 ? 50.0 : -5.0,
                 Why(explain, "dismiss Wallenstein: his track is at %1").arg(track)};
        else if (a.target == 1)
            r = {track <= 8 ? 40.0 : -5.0, Why(explain, "recall Wallenstein: his track is at %1").arg(track)};
        else
            r = {track >= 17 ? 45.0 : -20.0,
                 Why(explain, "assassinate Wallenstein: his track is at %1").arg(track)};
        break;
    }
    case ActionKind::Pass:
        r = {0, QStringLiteral("pass")};
        break;
    case ActionKind::Choose: {
        // 6.G: discard the held card for a fresh one only when it is weak
        const Card& card = d.cards[a.target];
        const bool weak = card.value <= 1 && !card.combat;
        r = {weak ? 5.0 : -5.0, Why(explain, "%1 the held card %2 (value %3)")
                                    .arg(weak ? QStringLiteral("discard") : QStringLiteral("keep"), card.id)
                                    .arg(card.value)};
        break;
    }
    default:
        r = {1, QStringLiteral("default")};
    }
    return r;
}

Scored scoreActivation(const GameData& d, const GameState& s, const Forces& f, const Target& t,
                       const ActivationFrame& af, int actor, const Action& a, bool explain) {
    Scored r;
    const int side = af.side;
    if (a.kind == ActionKind::React) {
        // 11.23: stay outside to fight if our army outside can face the enemy stack, else withdraw.
        const int attacker = stackCf(d, s, af.units);
        const int ours = af.reactionCity >= 0 ? f.out[actor][static_cast<size_t>(af.reactionCity)] : 0;
        const bool fight = ours * 10 >= attacker * 9;
        const bool in = a.target == 1;
        r.score = (in != fight) ? 10 : 5;
        r.why = Why(explain, "%1: our %2 CF outside against %3 CF entering %4")
                    .arg(in ? QStringLiteral("withdraw inside") : QStringLiteral("stay outside"))
                    .arg(ours)
                    .arg(attacker)
                    .arg(placeName(d, af.reactionCity));
        return r;
    }
    const int cf = stackCf(d, s, af.units);
    const int opp = other(side);
    const int at = af.at;
    switch (a.kind) {
    case ActionKind::Attack: {
        const int enemy = isCity(static_cast<int16_t>(at)) ? f.out[opp][static_cast<size_t>(at)] : 0;
        const int mine = stackCf(d, s, a.list);
        const bool good = af.mustStop || mine >= enemy;
        r.score = (good ? 90 : 5) + static_cast<double>(a.list.size()) + mine * 0.01;
        r.why = Why(explain, "attack at %1 (%2 CF against %3)").arg(placeName(d, at)).arg(mine).arg(enemy);
        return r;
    }
    case ActionKind::Overrun:
        return {95, Why(explain, "overrun at %1").arg(placeName(d, at))};
    case ActionKind::TakeControl: {
        const int vp = isCity(static_cast<int16_t>(at)) ? d.cities[at].vp : 0;
        return {75.0 + vp * 5, Why(explain, "take control of %1 (%2 VP)").arg(placeName(d, at)).arg(vp)};
    }
    case ActionKind::Besiege:
        return {70, Why(explain, "besiege %1").arg(placeName(d, at))};
    case ActionKind::Assault:
        return {65, Why(explain, "assault %1").arg(placeName(d, at))};
    case ActionKind::PickUp: {
        const int16_t p = a.list.empty() ? -1 : a.list.front();
        if (isLeaderPiece(p))
            return {af.moved ? 10.0 : 30.0, QStringLiteral("pick up a leader")};
        return {af.moved ? 45.0 : 80.0, QStringLiteral("pick up units before marching")};
    }
    case ActionKind::DropOff:
        return {-10, QStringLiteral("drop off")};
    case ActionKind::EndActivation:
        return {20, Why(explain, "end the activation at %1").arg(placeName(d, at))};
    case ActionKind::Move: {
        if (isBox(static_cast<int16_t>(t.city))) {
            // the campaign plan: Spinola's army marches to the United Provinces (5.15, 16.21)
            if (a.target == t.city)
                return {70, QStringLiteral("enter the United Provinces (5.15)")};
            if (!isCity(a.target) || !isCity(static_cast<int16_t>(at)))
                return {0, QStringLiteral("move to a box")};
            const Campaign& cp = campaign(d);
            const int da = cp.upDist[static_cast<size_t>(at)], dn = cp.upDist[static_cast<size_t>(a.target)];
            double sc = dn >= 0 && dn < da ? 50 : 0;
            if (f.out[opp][static_cast<size_t>(a.target)] > 0 &&
                cf * 10 < f.out[opp][static_cast<size_t>(a.target)] * 12)
                sc = -30;
            return {sc,
                    Why(explain, "march towards the United Provinces (%1 spaces, %2 CF)").arg(da).arg(cf)};
        }
        if (!isCity(a.target) || !isCity(static_cast<int16_t>(at)))
            return {3, QStringLiteral("move to a box")};
        if (t.city < 0)
            return {0, QStringLiteral("no objective")};
        const Distances& dist = distances(d);
        const int da = t.route ? (*t.route)[static_cast<size_t>(at)] : dist.at(at, t.city);
        const int dn = t.route ? (*t.route)[static_cast<size_t>(a.target)] : dist.at(a.target, t.city);
        const int enemy = f.out[opp][static_cast<size_t>(a.target)];
        double sc = dn >= 0 && dn < da ? 50 + (a.target == t.city ? 10 : 0) : 0;
        if (enemy > 0 && cf * 10 < enemy * 12)
            sc = -30;
        return {
            sc,
            Why(explain, "march towards %1 (%2 spaces, %3 CF)").arg(placeName(d, t.city)).arg(da).arg(cf)};
    }
    default:
        return {1, QStringLiteral("default")};
    }
}

Scored scoreCombat(const GameData& d, const GameState& s, const Forces& f, const CombatFrame& cf, int actor,
                   const Action& a, bool explain) {
    switch (a.kind) {
    case ActionKind::CombatCard:
        return {cf.cards[actor].empty() ? 40.0 : 5.0,
                Why(explain, "combat card %1 at %2").arg(d.cards[a.card].id, placeName(d, cf.city))};
    case ActionKind::Pass:
        return {20, QStringLiteral("keep the cards")};
    case ActionKind::Losses: {
        const double cost = lossCost(d, s, a);
        return {100 - cost, Why(explain, "losses costing %1 CF").arg(cost, 0, 'f', 1)};
    }
    case ActionKind::Retreat: {
        const int side = actor;
        const int opp = other(side);
        if (a.target == -2)
            return {12, Why(explain, "retreat inside the fortress at %1").arg(placeName(d, cf.city))};
        if (!isCity(a.target))
            return {1, QStringLiteral("retreat to a box")};
        const City& c = d.cities[a.target];
        double sc = 10;
        if (f.control[static_cast<size_t>(a.target)] == side)
            sc += 10;
        sc += f.out[side][static_cast<size_t>(a.target)] * 0.5 + (c.fortress ? 3 : 0) + c.vp * 0.5;
        for (int nb : c.neighbours)
            sc -= f.out[opp][static_cast<size_t>(nb)] * 0.3;
        return {sc, Why(explain, "retreat to %1").arg(placeName(d, a.target))};
    }
    default:
        return {1, QStringLiteral("default")};
    }
}

// A prior for the choices the evaluation does not see (their effect comes later).
Scored scoreChoice(const GameData& d, const GameState& s, const ChoiceFrame& ch, int actor, const Action& a,
                   bool plan, bool explain) {
    const bool pass = a.kind == ActionKind::Pass;
    if (plan && actor == kCath && ch.purpose == kChooseEventBase + 2 && ch.data == campaign(d).c11) {
        // C11: the fewest and weakest Spanish units go with Spinola (3; the rest stay on the map)
        if (pass)
            return {100, QStringLiteral("C11: three units are enough")};
        const int cf =
            a.target >= 0 && static_cast<size_t>(a.target) < s.units.size() ? unitCf(d, s, a.target) : 0;
        return {50.0 - cf, Why(explain, "C11: the weakest Spanish unit to the UP (%1 CF)").arg(cf)};
    }
    if (plan && actor == kCath && ch.purpose == kChooseDiscard && a.target == campaign(d).c11 &&
        spinolaUrgency(d, s, campaign(d)) > 0)
        return {20, QStringLiteral("hold C11 for Spinola's army (5.15)")};
    if (plan && actor == kCath && ch.purpose == kChooseDiscard &&
        (a.target == campaign(d).c3 || a.target == campaign(d).c4) && spinolaArmyInUp(d, s, campaign(d)) &&
        s.dutchWar < 5 && s.dutchWar > -3)
        return {20, Why(explain, "hold %1 to open the next turn with it (16.25)").arg(d.cards[a.target].id)};
    switch (ch.purpose) {
    case kRecruitLeader:
        return {pass ? 0.0 : 10.0, pass ? QStringLiteral("stop recruiting") : QStringLiteral("recruit")};
    case kRecruitKind:
        return {a.target == 1 ? 2.0 : 1.0, a.target == 1 ? QStringLiteral("recruit Mercenaries (stronger)")
                                                         : QStringLiteral("recruit Militia")};
    case kRecruitSteps:
        // Full-strength units first; the look-ahead below may prefer more units, reduced (the reason says
        // which was chosen, not only the list's preference).
        if (a.target == 0)
            return {0.0, QStringLiteral("recruit all units reduced")};
        return {
            static_cast<double>(a.target),
            Why(explain, "recruit %1 at full strength")
                .arg(a.target == 1 ? QStringLiteral("1 unit") : QStringLiteral("%1 units").arg(a.target))};
    case kRecruitAp:
        return {a.target == 1 ? 1.0 : 0.0, QStringLiteral("aid point for recruitment")};
    case kPayUnits: {
        if (pass)
            return {0, QStringLiteral("pay no more units")};
        const int cf =
            a.target >= 0 && static_cast<size_t>(a.target) < s.units.size() ? unitCf(d, s, a.target) : 0;
        return {10.0 + cf, Why(explain, "pay the strongest unpaid unit (%1 CF)").arg(cf)};
    }
    case kStepLoss: {
        const int cf =
            a.target >= 0 && static_cast<size_t>(a.target) < s.units.size() ? unitCf(d, s, a.target) : 0;
        return {10.0 - cf, QStringLiteral("the step loss from the weakest unit")};
    }
    case kRecoverPillage:
    case kSetupPillage: {
        if (pass)
            return {0, QStringLiteral("pass")};
        const bool city = a.target >= 0 && a.target < d.cities.size();
        const int ctl = city ? effectiveCityControl(d, s, a.target) : kNone;
        const double want =
            ch.purpose == kRecoverPillage ? (ctl == actor ? 3 : 1) : (ctl == other(actor) ? 3 : 0);
        return {5 + want + (city ? d.cities[a.target].vp : 0),
                Why(explain, "%1 at %2")
                    .arg(ch.purpose == kRecoverPillage ? QStringLiteral("recover pillage")
                                                       : QStringLiteral("pillage the enemy"),
                         city ? placeName(d, a.target) : QString::number(a.target))};
    }
    case kPeaceAnswer:
        return {a.kind == ActionKind::Decline ? 1.0 : 0.0, QStringLiteral("answer the peace offer")};
    case kChooseDiscard: {
        // 6.D: the card held over to the next turn: the most valuable one (a combat card counts 2 more)
        if (a.target < 0 || a.target >= d.cards.size())
            return {0, QStringLiteral("hold a card")};
        const Card& card = d.cards[a.target];
        return {card.value + (card.combat ? 2.0 : 0.0),
                Why(explain, "hold %1 (value %2) for the next turn").arg(card.id).arg(card.value)};
    }
    default:
        return {pass ? 0.0 : 0.5, QStringLiteral("choice")};
    }
}

bool wantsLookahead(const ChoiceFrame& ch) {
    switch (ch.purpose) {
    case kRecruitLeader:
    case kRecruitKind:
    case kRecruitAp:
    case kPayUnits:
    case kStepLoss:
    case kPeaceAnswer:
    case kChooseDiscard:
        return false;
    default:
        return true;
    }
}

size_t pickBest(const std::vector<Scored>& sc, Rng& rng) {
    size_t best = 0;
    int ties = 1;
    for (size_t i = 1; i < sc.size(); ++i) {
        if (sc[i].score > sc[best].score + 1e-9) {
            best = i;
            ties = 1;
        } else if (std::abs(sc[i].score - sc[best].score) <= 1e-9 && rng.below(++ties) == 0) {
            best = i;
        }
    }
    return best;
}

} // namespace

namespace {
// The campaign plan sends an activation of Spinola's army to the UP (5.15) once it is urgent.
bool upObjectiveWanted(const GameData& d, const GameState& s, const ActivationFrame& af) {
    const Campaign& cp = campaign(d);
    if (af.freeAction || spinolaUrgency(d, s, cp) < 0.75 || !isSpanishLeader(d, cp, af.leader))
        return false;
    if (isBox(af.at))
        return false;
    int spanish = 0;
    for (int16_t u : af.units)
        spanish += d.unitTypes[s.units[static_cast<size_t>(u)].type].nationality == cp.spanish;
    return spanish >= 3 || canFormSpinolaArmy(d, s, cp, af.leader);
}

// `objective` >= 0: the city the activation of `objectiveSide` marches towards instead of the priority
// list's own objective (the search bot's plan level; -1 for the priority list).
// `planSide`: the side whose decisions follow the campaign plan as well (the search bot's side; kNone for
// the priority list).
std::vector<Scored> scoreAll(const Engine& engine, const GameState& s, const std::vector<Action>& legal,
                             bool explain, int objective = -1, int objectiveSide = kNone,
                             int planSide = kNone) {
    const GameData& d = engine.data();
    const KeyPlaces& k = keyPlaces(d);
    std::vector<Scored> sc(legal.size());
    const Frame& top = s.frames.back();
    const int who = engine.actor(s);
    // the forces on the map only where the scoring reads them (not for the choices, the most frequent step)
    if (const auto* af = std::get_if<ActivationFrame>(&top)) {
        const Forces f(d, s);
        const int act = af->reactionCity >= 0 ? other(af->side) : af->side;
        Target t = af->reactionCity >= 0 ? Target{}
                   : objective >= 0 && af->side == objectiveSide
                       ? Target{objective, 1}
                       : bestTarget(d, s, f, k, af->side, af->at, stackCf(d, s, af->units));
        if (af->reactionCity < 0 && objective < 0 && af->side == planSide && planSide == kCath &&
            upObjectiveWanted(d, s, *af))
            t = Target{kBoxBase + campaign(d).up, 1};
        std::vector<int8_t> route;
        if (af->side == planSide && af->reactionCity < 0 && isCity(static_cast<int16_t>(t.city))) {
            route = routeTo(d, s, f, af->side, t.city, stackCf(d, s, af->units));
            t.route = &route;
        }
        for (size_t i = 0; i < legal.size(); ++i)
            sc[i] = scoreActivation(d, s, f, t, *af, act, legal[i], explain);
    } else if (const auto* cf = std::get_if<CombatFrame>(&top)) {
        const Forces f(d, s);
        for (size_t i = 0; i < legal.size(); ++i)
            sc[i] = scoreCombat(d, s, f, *cf, who, legal[i], explain);
    } else if (const auto* ch = std::get_if<ChoiceFrame>(&top)) {
        for (size_t i = 0; i < legal.size(); ++i)
            sc[i] = scoreChoice(d, s, *ch, ch->actor, legal[i], ch->actor == planSide, explain);
        const bool c11Units =
            ch->actor == planSide && ch->purpose == kChooseEventBase + 2 && ch->data == campaign(d).c11;
        if (wantsLookahead(*ch) && legal.size() <= 40 && !c11Units) {
            // The effect shows at once: one step of look-ahead with the evaluation.
            for (size_t i = 0; i < legal.size(); ++i) {
                GameState t = s;
                if (engine.applyListed(t, legal, i).ok) {
                    const double v = evaluate(d, t, ch->actor);
                    sc[i].score += v * 10;
                    if (explain)
                        sc[i].why += QStringLiteral(" (position %1)").arg(v, 0, 'f', 1);
                }
            }
        }
    } else if (std::holds_alternative<SiegeFrame>(top)) {
        for (size_t i = 0; i < legal.size(); ++i)
            sc[i] = {legal[i].kind == ActionKind::Pass ? 0.0 : 1.0, QStringLiteral("siege")};
    } else {
        const Forces f(d, s);
        std::vector<LeaderTarget> leaderTargets;
        for (size_t i = 0; i < legal.size(); ++i)
            sc[i] = scoreTurn(d, s, f, k, who, legal[i], who == planSide, explain, leaderTargets);
    }
    return sc;
}

size_t fastChoiceImpl(const Engine& engine, const GameState& s, const std::vector<Action>& legal, Rng& rng,
                      QString* reason, int objective = -1, int objectiveSide = kNone, int planSide = kNone) {
    if (legal.size() <= 1) {
        if (reason)
            *reason = QStringLiteral("the only legal action");
        return 0;
    }
    const std::vector<Scored> sc =
        scoreAll(engine, s, legal, reason != nullptr, objective, objectiveSide, planSide);
    const size_t best = pickBest(sc, rng);
    if (reason)
        *reason = sc[best].why;
    return best;
}
} // namespace

QString describe(const Engine& engine, const GameState& s, const Action& a, int planSide) {
    return scoreAll(engine, s, {a}, true, -1, kNone, planSide).front().why;
}

size_t fastChoice(const Engine& engine, const GameState& s, const std::vector<Action>& legal, Rng& rng,
                  QString* reason) {
    return fastChoiceImpl(engine, s, legal, rng, reason);
}

size_t fastChoiceTowards(const Engine& engine, const GameState& s, const std::vector<Action>& legal, Rng& rng,
                         int objective, int side, QString* reason, int planSide) {
    return fastChoiceImpl(engine, s, legal, rng, reason, objective, side, planSide);
}

namespace {
// The strength of `side` outside the fortresses within two spaces of `city` (the threat to it).
int strengthNear(const Distances& dist, const Forces& f, int city, int side) {
    int near = 0;
    for (int e = 0; e < dist.n; ++e) {
        const int de = dist.at(city, e);
        if (de >= 0 && de <= 2)
            near += f.out[side][static_cast<size_t>(e)];
    }
    return near;
}
} // namespace

std::vector<int> activationObjectives(const GameData& d, const GameState& s, int leader, int side,
                                      int count) {
    std::vector<int> out;
    if (leader < 0 || static_cast<size_t>(leader) >= s.leaders.size())
        return out;
    const int at = s.leaders[static_cast<size_t>(leader)].loc;
    const int cf = leaderStackCf(d, s, leader, side);
    if (!isCity(static_cast<int16_t>(at)) || cf <= 0)
        return out;
    const Forces f(d, s);
    const KeyPlaces& k = keyPlaces(d);
    const Distances& dist = distances(d);
    std::vector<std::pair<double, int>> scored;
    int defend = -1, defendDist = 100;
    const int opp = other(side);
    for (int c = 0; c < dist.n; ++c) {
        const int dd = dist.at(at, c);
        if (dd < 0 || dd > 10)
            continue;
        const double v = cityValue(d, s, f, k, side, c, cf);
        if (v > 0)
            scored.emplace_back(v / (1.0 + dd), c);
        // 5.141: our Elector (or key city) with enemy strength within two spaces above ours in it
        if (dd <= 5 && dd < defendDist && (d.cities[c].elector || isKeyCity(k, c)) &&
            f.control[static_cast<size_t>(c)] == side) {
            if (strengthNear(dist, f, c, opp) >
                f.out[side][static_cast<size_t>(c)] + f.in[side][static_cast<size_t>(c)]) {
                defend = c;
                defendDist = dd;
            }
        }
    }
    std::stable_sort(scored.begin(), scored.end(),
                     [](const auto& a, const auto& b) { return a.first > b.first; });
    for (const auto& [v, c] : scored) {
        if (static_cast<int>(out.size()) >= count)
            break;
        out.push_back(c);
    }
    if (defend >= 0 && std::find(out.begin(), out.end(), defend) == out.end())
        out.push_back(defend);
    if (side == kCath) {
        // the campaign plan (5.141, the Catholic's): the nearest lost Elector city within 6 spaces and the
        // best city of an Elector Area he does not control, both as the priority list would go for them
        int lost = -1, lostDist = 7, areaCity = -1;
        double areaScore = 0;
        for (int c = 0; c < dist.n; ++c) {
            const int dd = dist.at(at, c);
            if (dd < 0 || dd > 6 || f.control[static_cast<size_t>(c)] == side)
                continue;
            const double v = cityValue(d, s, f, k, side, c, cf);
            if (v <= 0)
                continue;
            if (d.cities[c].elector && dd < lostDist) {
                lost = c;
                lostDist = dd;
            }
            const int ar = d.cities[c].area;
            if (ar >= 0 && isElectorArea(d, s, ar) && s.areas[static_cast<size_t>(ar)].control != side &&
                v / (1.0 + dd) > areaScore) {
                areaScore = v / (1.0 + dd);
                areaCity = c;
            }
        }
        for (int c : {lost, areaCity})
            if (c >= 0 && std::find(out.begin(), out.end(), c) == out.end())
                out.push_back(c);
    }
    return out;
}

double electorThreat(const GameData& d, const GameState& s, int side) {
    const Forces f(d, s);
    const KeyPlaces& k = keyPlaces(d);
    const Distances& dist = distances(d);
    double threat[2] = {0, 0};
    for (int c = 0; c < dist.n; ++c) {
        if (!d.cities[c].elector && !isKeyCity(k, c))
            continue;
        const int owner = f.control[static_cast<size_t>(c)];
        if (owner != kCath && owner != kProt)
            continue;
        const int opp = other(owner);
        const int near = strengthNear(dist, f, c, opp);
        const int own = f.out[owner][static_cast<size_t>(c)] + f.in[owner][static_cast<size_t>(c)];
        if (near > own)
            threat[owner] += (1.0 + d.cities[c].vp) * std::min(1.0, (near - own) / 4.0);
    }
    return threat[other(side)] - threat[side];
}

int playout(const Engine& engine, GameState& s, Rng& rng, int cardRounds, int maxActions, int planSide) {
    int n = 0, rounds = 0;
    while (!s.gameOver && n < maxActions) {
        if (n > 0 && s.frames.size() == 1 && ++rounds >= cardRounds)
            break;
        const std::vector<Action> legal = engine.legalActions(s);
        if (legal.empty())
            break;
        const size_t i = fastChoiceImpl(engine, s, legal, rng, nullptr, -1, kNone, planSide);
        if (!engine.applyListed(s, legal, i).ok) // legal is s's list: not listed again to check it
            break;
        ++n;
    }
    return n;
}

} // namespace wp::ai
