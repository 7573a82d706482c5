// Battle export to TVBD v2.0 (docs/battle-export.md). Every choice below is made from the mapping file or
// the seed, so the same (battle, mapping, seed) always gives the same JSON.
#include "battle/export.h"

#include "battle/site.h"
#include "data/datadir.h"
#include "data/gamedata.h"
#include "data/words.h"
#include "rules/rng.h"
#include "rules/state.h"
#include "tactical/sidewords.h"
#include "tactical/tvbd.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QLineF>
#include <QMap>

#include <algorithm>
#include <cmath>
#include <variant>

namespace wp::battle {

using namespace wp::rules;

namespace {

struct Stand {
    QString type, quality, nat, kind, label;
    bool reduced = false;
    int resolveLoss = 0; // Unreliable Troops
    int unit = -1;       // the campaign unit (index in Force::units); -1 for cards' and guns' stands
    bool large = false;  // a Large Pike+Shot (16.2: two stands back to back)
};

const QString kCav[] = {QStringLiteral("Horse"), QStringLiteral("LightHorse"), QStringLiteral("Dragoons")};

bool isCav(const QString& t) {
    return std::find(std::begin(kCav), std::end(kCav), t) != std::end(kCav);
}

QString lower(const QString& q) { // one step down for a reduced unit
    if (q == QLatin1String("superior"))
        return QStringLiteral("ordinary");
    if (q == QLatin1String("ordinary"))
        return QStringLiteral("inferior");
    return q;
}

bool matches(const QJsonObject& e, const ForceUnit& u, int year) {
    const QString n = e.value(QStringLiteral("nationality")).toString(QStringLiteral("*"));
    const QString k = e.value(QStringLiteral("kind")).toString(QStringLiteral("*"));
    if (n != QLatin1String("*") && n != u.nationality)
        return false;
    if (k != QLatin1String("*") && k != u.kind)
        return false;
    if (year < e.value(QStringLiteral("from")).toInt(0) || year > e.value(QStringLiteral("to")).toInt(9999))
        return false;
    return true;
}

QString natName(const QString& id) {
    return id.isEmpty() ? id : id.left(1).toUpper() + id.mid(1);
}

// The stands of one side before the card effects and caps.
QList<Stand> forceStands(const Force& f, const QJsonObject& m, int year, int budget) {
    QList<QList<Stand>> perUnit;
    const QJsonArray entries = m.value(QStringLiteral("units")).toArray();
    for (qsizetype i = 0; i < f.units.size(); ++i) {
        const ForceUnit& u = f.units[i];
        QList<Stand> st;
        for (const QJsonValue& v : entries) {
            const QJsonObject e = v.toObject();
            if (!matches(e, u, year))
                continue;
            const QJsonArray ss = e.value(QStringLiteral("stands")).toArray();
            for (qsizetype k = 0; k < ss.size() && (!u.reduced || k == 0); ++k) {
                Stand s;
                s.type = ss[k].toArray().at(0).toString();
                s.quality = ss[k].toArray().at(1).toString(QStringLiteral("ordinary"));
                if (u.reduced)
                    s.quality = lower(s.quality);
                s.nat = u.nationality;
                s.kind = u.kind;
                s.reduced = u.reduced;
                s.unit = int(i);
                // 16.2: a Large Pike+Shot is two stands back to back; a reduced unit keeps one of them.
                s.large = ss[k].toArray().at(2).toString() == QLatin1String("large") && !u.reduced;
                s.label = QStringLiteral("%1 %2%3 (unit %4)")
                              .arg(natName(u.nationality), u.kind,
                                   u.reduced ? QStringLiteral(", reduced") : QString())
                              .arg(i + 1);
                st << s;
            }
            break;
        }
        if (st.isEmpty()) { // no entry matched: one ordinary Pike+Shot
            Stand s{
                QStringLiteral("PikeShot"), QStringLiteral("ordinary"), u.nationality, u.kind,
                QStringLiteral("%1 %2 (unit %3, unmapped)").arg(natName(u.nationality), u.kind).arg(i + 1)};
            s.unit = int(i);
            st << s;
        }
        perUnit << st;
    }
    // Round robin: every unit's first stand, then the second stands, up to the budget (a Large Pike+Shot
    // counts two; when only one fits it comes as a normal one).
    QList<Stand> out;
    int used = 0;
    for (int k = 0; k < 2; ++k)
        for (const QList<Stand>& st : perUnit)
            if (k < st.size() && used < budget) {
                Stand x = st[k];
                x.large = x.large && used + 2 <= budget;
                used += x.large ? 2 : 1;
                out << x;
            }
    return out;
}

// TVBD 7.3.2: an army's nationality, its commander's (the first leader), else that of most of its campaign
// units (the first named on a tie).
QString armyNationality(const Force& f) {
    if (!f.leaders.isEmpty() && !f.leaders.first().nationality.isEmpty())
        return f.leaders.first().nationality;
    QMap<QString, int> n;
    QString best;
    for (const ForceUnit& u : f.units)
        if (++n[u.nationality] > n.value(best))
            best = u.nationality;
    return best;
}

struct Slot {
    double x, y;
};

// TVBD 10.4 by the engine (runTerrainProcedure) with a defender who chooses his features by the place's
// character: each feature's type drawn by the Area's weights (the mapping's
// "areas": Saxony's fields, Tyrol's mountains; each type the defender may place keeps a small weight,
// marsh counts for streams; no river) and its place at random among the legal ones of that type; once the
// rules let him stop (10.4: 1-4 / 2-6 / 2-8 features) he stops one time in three. The roads and the
// attacker's change are the engine's simple policy's.
wp::tactical::SetupChooser areaDefender(const QJsonObject& character) {
    using namespace wp::tactical;
    return [character](const TvbdEngine& engine, const BattleState& s, wp::rules::Rng& policy) {
        if (s.setup.stage != SetupStage::PlaceTerrain)
            return chooseSetupAction(engine, s, policy); // roads, the attacker's change: the simple policy
        // The defender: while the rules let him stop (a legal action that is not a placement), he stops
        // one time in three; the feature's type by the Area's weights, its place at random.
        const QList<TAction> legal = engine.legalActions(s);
        QMap<QString, QList<TAction>> byType; // sorted: the draw does not depend on hashing
        TAction stop;
        bool canStop = false;
        for (const TAction& l : legal)
            if (l.kind != TAction::Place) {
                stop = l;
                canStop = true;
            } else if (l.terrain.type != QLatin1String("river")) // keeps the battle fightable
                byType[l.terrain.type] << l;
        if (byType.isEmpty() || (canStop && policy.below(3) == 0))
            return canStop ? stop : legal.last();
        double total = 0;
        QList<std::pair<QString, double>> weights;
        for (auto it = byType.cbegin(); it != byType.cend(); ++it) {
            const double w =
                0.25 + character.value(it.key()).toDouble() +
                (it.key() == QLatin1String("stream") ? character.value(QStringLiteral("marsh")).toDouble()
                                                     : 0.0);
            weights << std::pair{it.key(), w};
            total += w;
        }
        double pick = total * policy.below(100000) / 100000.0;
        for (const auto& [type, w] : weights) {
            if (pick < w || type == weights.last().first) {
                const QList<TAction>& of = byType[type];
                return of[policy.below(int(of.size()))];
            }
            pick -= w;
        }
        return legal.last();
    };
}

// The scenario with its terrain and its commands not yet deployed (10.6 "players"): what the 10.4
// procedure runs on, and how the engine's loader reads the terrain back (classes and pieces).
QJsonObject undeployed(const QJsonObject& root, const QJsonArray& terrain,
                       const QList<QList<Stand>>* commands) {
    QJsonObject o = root;
    QJsonArray cmds;
    for (int s = 0; s < 2; ++s)
        for (qsizetype c = 0; c < commands[s].size(); ++c) {
            const QString id = QStringLiteral("%1%2").arg(s == 0 ? "A" : "D").arg(c + 1);
            QJsonArray units{QJsonObject{{QStringLiteral("id"), id + QStringLiteral("-0")},
                                         {QStringLiteral("type"), QStringLiteral("Commander")}}};
            for (qsizetype j = 0; j < commands[s][c].size(); ++j) {
                const Stand& st = commands[s][c][j];
                QJsonObject u{{QStringLiteral("id"), QStringLiteral("%1-%2").arg(id).arg(j + 1)},
                              {QStringLiteral("type"), st.type},
                              {QStringLiteral("quality"), st.quality}};
                if (st.large)
                    u.insert(QStringLiteral("large"), true);
                units << u;
            }
            cmds << QJsonObject{
                {QStringLiteral("id"), id}, {QStringLiteral("side"), s}, {QStringLiteral("units"), units}};
        }
    o.insert(QStringLiteral("commands"), cmds);
    o.insert(QStringLiteral("terrain"), terrain);
    o.insert(QStringLiteral("setup"), QJsonObject{{QStringLiteral("deployment"), QStringLiteral("players")}});
    return o;
}

} // namespace

QString defaultMappingPath() {
    return wp::findDataDir() + QStringLiteral("/scenarios/battle-mapping.json");
}

bool loadMapping(const QString& path, TvbdMapping* out, QString* error) {
    QJsonObject doc;
    if (!wp::tactical::readJsonObject(path, &doc, error))
        return false;
    const QJsonObject t = doc.value(QStringLiteral("tvbd")).toObject();
    auto fail = [&](const QString& where, const QString& what) {
        *error = QStringLiteral("%1: tvbd.%2: %3").arg(path, where, what);
        return false;
    };
    if (doc.value(QStringLiteral("format")).toString() != QLatin1String("westphalia-battle-mapping"))
        return fail(QStringLiteral("format"), QStringLiteral("'westphalia-battle-mapping' is needed"));
    static const QStringList types = {QStringLiteral("Horse"),    QStringLiteral("LightHorse"),
                                      QStringLiteral("Dragoons"), QStringLiteral("PikeShot"),
                                      QStringLiteral("Shot"),     QStringLiteral("Rabble")};
    static const QStringList quals = {QStringLiteral("superior"), QStringLiteral("ordinary"),
                                      QStringLiteral("inferior"), QStringLiteral("raw")};
    const QJsonArray units = t.value(QStringLiteral("units")).toArray();
    if (units.isEmpty())
        return fail(QStringLiteral("units"), QStringLiteral("a non-empty list is needed"));
    for (qsizetype i = 0; i < units.size(); ++i) {
        const QJsonArray ss = units[i].toObject().value(QStringLiteral("stands")).toArray();
        const QString p = QStringLiteral("units[%1].stands").arg(i);
        if (ss.isEmpty() || ss.size() > 2)
            return fail(p, QStringLiteral("one or two stands are needed"));
        for (qsizetype k = 0; k < ss.size(); ++k) {
            const QJsonArray s = ss[k].toArray();
            if (!types.contains(s.at(0).toString()))
                return fail(p + QStringLiteral("[%1]").arg(k),
                            QStringLiteral("unit type '%1' is not one of %2")
                                .arg(s.at(0).toString(), types.join(QStringLiteral(", "))));
            if (!quals.contains(s.at(1).toString()))
                return fail(p + QStringLiteral("[%1]").arg(k),
                            QStringLiteral("quality '%1' is not one of %2")
                                .arg(s.at(1).toString(), quals.join(QStringLiteral(", "))));
            if (s.size() > 2 && (s.at(2).toString() != QLatin1String("large") ||
                                 s.at(0).toString() != QLatin1String("PikeShot") ||
                                 s.at(1).toString() == QLatin1String("raw")))
                return fail(p + QStringLiteral("[%1][2]").arg(k),
                            QStringLiteral("only 'large' for a Pike+Shot that is not raw (16.2)"));
        }
    }
    const int cap = t.value(QStringLiteral("maxStandsPerSide")).toInt(22);
    if (cap < 2 || cap > 40)
        return fail(QStringLiteral("maxStandsPerSide"), QStringLiteral("2 to 40 is needed"));
    const QString proc = t.value(QStringLiteral("terrainProcedure")).toString(QStringLiteral("tvbd"));
    if (proc != QLatin1String("tvbd") && proc != QLatin1String("cards") && proc != QLatin1String("area"))
        return fail(
            QStringLiteral("terrainProcedure"),
            QStringLiteral("'%1' is not tvbd (the rulebook's 10.4), cards (its terrain cards, 16.6) or "
                           "area (the Area's table)")
                .arg(proc));
    if (t.value(QStringLiteral("tables")).toArray().isEmpty())
        return fail(QStringLiteral("tables"), QStringLiteral("a non-empty list is needed"));
    if (!loadSites(sitesPathFor(path), &out->sites, error))
        return false;
    out->root = t;
    return true;
}

quint64 defaultBattleSeed(quint64 gameSeed, const wp::rules::GameState& st) {
    const auto* cf = st.frames.empty() ? nullptr : std::get_if<wp::rules::CombatFrame>(&st.frames.back());
    if (!cf)
        return gameSeed;
    // FNV-1a over the fields that stay the same through the whole combat.
    quint64 h = 1469598103934665603ULL;
    for (const qint64 v : {qint64(gameSeed), qint64(st.turn), qint64(cf->city), qint64(cf->attacker),
                           qint64(cf->attackerFrom)}) {
        for (int b = 0; b < 8; ++b) {
            h ^= quint64(v >> (8 * b)) & 0xff;
            h *= 1099511628211ULL;
        }
    }
    return h % 1000000007ULL; // the scenario's seed field keeps it whole (exportTvbd, exportTercios)
}

bool inputFromState(const GameData& data, const wp::rules::GameState& st, BattleInput* out, QString* error) {
    const CombatFrame* cf = st.frames.empty() ? nullptr : std::get_if<CombatFrame>(&st.frames.back());
    if (!cf) {
        *error = QStringLiteral("no combat is about to be resolved (the top frame is not a combat)");
        return false;
    }
    BattleInput in;
    if (cf->city >= 0 && cf->city < data.cities.size()) {
        const City& c = data.cities[cf->city];
        in.city = c.name;
        const int a = c.area >= 0 ? c.area : c.within;
        if (a >= 0 && a < data.areas.size())
            in.area = data.areas[a].id;
        in.fortress = c.fortress.has_value();
    }
    in.year = 1618 + 2 * st.turn; // tyw-facts: turn t covers (1618+2t)-(1619+2t)
    // The month (the campaign counts two-year turns, no months): one of the campaign season, March to
    // November, drawn from the combat itself (turn, city, attacker, where it came from), so the battle has
    // its date before any seed and "another terrain" keeps it.
    in.month = 3 + int(defaultBattleSeed(0, st) % 9);
    const int att = cf->attacker;
    // The situation (docs/battle-export.md "Special rules from the situation").
    in.sally = cf->sally;
    in.relief = cf->relief;
    if (cf->city >= 0 && cf->city < data.cities.size()) {
        const City& c = data.cities[cf->city];
        const int a = c.area >= 0 ? c.area : c.within;
        in.neutralArea = a >= 0 && size_t(a) < st.areas.size() && st.areas[size_t(a)].neutral;
        addMapRoads(data, cf->city, cf->attackerFrom, &in);
        if (cf->attackerFrom >= 0 && cf->attackerFrom < data.cities.size() && cf->attackerFrom != cf->city)
            in.approach = data.cities[cf->attackerFrom].name;
        else if (!in.roads.isEmpty())
            in.approach = in.roads.first().to;
    }
    if (in.relief)
        for (int16_t u : cf->attackUnits)
            if (st.units[size_t(u)].flags & kInside)
                ++in.garrison;
    for (int i = 0; i < 2; ++i) {
        const int side = i == 0 ? att : 1 - att;
        Force& f = in.sides[i];
        f.name = side == kCatholic ? QStringLiteral("Catholic") : QStringLiteral("Protestant");
        QList<int16_t> units(i == 0 ? cf->attackUnits.begin() : cf->defendUnits.begin(),
                             i == 0 ? cf->attackUnits.end() : cf->defendUnits.end());
        if (i == 0 && in.relief) // the garrison (units from inside the town) last: BattleInput::garrison
            std::stable_partition(units.begin(), units.end(),
                                  [&](int16_t u) { return !(st.units[size_t(u)].flags & kInside); });
        for (int16_t u : units) {
            const UnitState& us = st.units[size_t(u)];
            const UnitType& ut = data.unitTypes[us.type];
            ForceUnit fu;
            fu.nationality = ut.nationality >= 0 ? data.nationalities[ut.nationality].id : QString();
            fu.kind = unitKindId(ut.kind);
            fu.reduced = us.steps == 1;
            f.units << fu;
        }
        QList<int16_t> leaders(i == 0 ? cf->attackLeaders.begin() : cf->defendLeaders.begin(),
                               i == 0 ? cf->attackLeaders.end() : cf->defendLeaders.end());
        const int16_t cmd = i == 0 ? cf->attackCommander : cf->defendCommander;
        if (cmd >= 0) {
            leaders.removeAll(cmd);
            leaders.prepend(cmd);
        }
        for (int16_t l : leaders) {
            const Leader& ld = data.leaders[l];
            f.leaders << ForceLeader{ld.name,
                                     ld.nationality >= 0 ? data.nationalities[ld.nationality].id : QString(),
                                     ld.battle, ld.stars};
        }
        for (int16_t c : cf->cards[side])
            f.cards << data.cards[c].title;
    }
    in.title =
        QStringLiteral("%1, %2").arg(in.city.isEmpty() ? QStringLiteral("A battle") : in.city).arg(in.year);
    *out = in;
    return true;
}

bool inputFromJson(const QJsonObject& root, const QString& fileName, BattleInput* out, QString* error) {
    auto fail = [&](const QString& where, const QString& what) {
        *error = QStringLiteral("%1: %2: %3").arg(fileName, where, what);
        return false;
    };
    BattleInput in;
    in.title = root.value(QStringLiteral("title")).toString();
    in.city = root.value(QStringLiteral("city")).toString();
    in.area = root.value(QStringLiteral("area")).toString();
    in.fortress = root.value(QStringLiteral("fortress")).toBool();
    in.year = root.value(QStringLiteral("year")).toInt(0);
    if (in.year < 1600 || in.year > 1700)
        return fail(QStringLiteral("year"), QStringLiteral("a year from 1600 to 1700 is needed"));
    const QJsonArray sides = root.value(QStringLiteral("sides")).toArray();
    if (sides.size() != 2)
        return fail(QStringLiteral("sides"),
                    QStringLiteral("exactly two sides are needed (the attacker first)"));
    static const QStringList kinds = {QStringLiteral("veteran"), QStringLiteral("mercenary"),
                                      QStringLiteral("militia")};
    for (int i = 0; i < 2; ++i) {
        const QString p = QStringLiteral("sides[%1]").arg(i);
        const QJsonObject so = sides[i].toObject();
        Force& f = in.sides[i];
        f.name = so.value(QStringLiteral("name")).toString();
        if (f.name.isEmpty())
            return fail(p + QStringLiteral(".name"), QStringLiteral("missing"));
        const QJsonArray us = so.value(QStringLiteral("units")).toArray();
        for (qsizetype k = 0; k < us.size(); ++k) {
            const QJsonObject uo = us[k].toObject();
            ForceUnit u;
            u.nationality = uo.value(QStringLiteral("nationality")).toString();
            u.kind = uo.value(QStringLiteral("kind")).toString();
            u.reduced = uo.value(QStringLiteral("reduced")).toBool();
            const int count = uo.value(QStringLiteral("count")).toInt(1);
            const QString up = p + QStringLiteral(".units[%1]").arg(k);
            if (u.nationality.isEmpty())
                return fail(up + QStringLiteral(".nationality"), QStringLiteral("missing"));
            if (!kinds.contains(u.kind))
                return fail(up + QStringLiteral(".kind"),
                            QStringLiteral("'%1' is not veteran, mercenary or militia").arg(u.kind));
            if (count < 1 || count > 40)
                return fail(up + QStringLiteral(".count"), QStringLiteral("1 to 40 is needed"));
            for (int c = 0; c < count; ++c)
                f.units << u;
        }
        if (f.units.isEmpty())
            return fail(p + QStringLiteral(".units"), QStringLiteral("at least one unit is needed"));
        for (const QJsonValue& lv : so.value(QStringLiteral("leaders")).toArray()) {
            const QJsonObject lo = lv.toObject();
            f.leaders << ForceLeader{lo.value(QStringLiteral("name")).toString(),
                                     lo.value(QStringLiteral("nationality")).toString(),
                                     lo.value(QStringLiteral("battle")).toInt(),
                                     lo.value(QStringLiteral("stars")).toInt()};
        }
        for (const QJsonValue& cv : so.value(QStringLiteral("cards")).toArray())
            f.cards << cv.toString();
    }
    // The site and the situation (all optional).
    in.month = root.value(QStringLiteral("month")).toInt(0);
    if (root.contains(QStringLiteral("month")) && (in.month < 1 || in.month > 12))
        return fail(QStringLiteral("month"), QStringLiteral("a month from 1 to 12 is needed"));
    const QJsonArray roads = root.value(QStringLiteral("roads")).toArray();
    for (qsizetype i = 0; i < roads.size(); ++i) {
        const QJsonObject ro = roads[i].toObject();
        const QJsonValue a = ro.value(QStringLiteral("angle"));
        if (!a.isDouble() || a.toDouble() < 0 || a.toDouble() >= 360)
            return fail(QStringLiteral("roads[%1].angle").arg(i),
                        QStringLiteral("an angle from 0 to 359 degrees is needed (0 toward the defender's "
                                       "base edge, 180 toward the attacker's)"));
        in.roads << BattleRoad{ro.value(QStringLiteral("to")).toString(), a.toDouble()};
    }
    in.approach = root.value(QStringLiteral("approach")).toString();
    if (root.contains(QStringLiteral("river"))) {
        const QJsonObject ro = root.value(QStringLiteral("river")).toObject();
        in.river = ro.value(QStringLiteral("name")).toString();
        in.riverKind = ro.value(QStringLiteral("kind")).toString();
        if (in.riverKind != QLatin1String("river") && in.riverKind != QLatin1String("stream") &&
            in.riverKind != QLatin1String("none"))
            return fail(QStringLiteral("river.kind"),
                        QStringLiteral("'%1' is not river, stream or none").arg(in.riverKind));
    }
    in.sally = root.value(QStringLiteral("sally")).toBool();
    in.relief = root.value(QStringLiteral("relief")).toBool();
    in.garrison = root.value(QStringLiteral("garrison")).toInt(0);
    in.neutralArea = root.value(QStringLiteral("neutral")).toBool();
    if (in.sally && in.relief)
        return fail(QStringLiteral("sally"), QStringLiteral("a battle is a sally or a relief, not both"));
    if (in.garrison < 0 || in.garrison > in.sides[0].units.size())
        return fail(QStringLiteral("garrison"),
                    QStringLiteral("from 0 to the attacker's %1 units").arg(in.sides[0].units.size()));
    if (in.title.isEmpty())
        in.title = QStringLiteral("%1, %2").arg(in.city).arg(in.year);
    *out = in;
    return true;
}

QJsonObject exportTvbd(const BattleInput& in, const TvbdMapping& map, const wp::tactical::TvbdRules& rules,
                       quint64 seed) {
    const QJsonObject& m = map.root;
    wp::rules::Rng rng(seed);
    QStringList notes;
    const int cap = m.value(QStringLiteral("maxStandsPerSide")).toInt(22);
    // Stand budget: both sides scaled by the same factor, so unequal armies stay unequal.
    int total[2];
    for (int s = 0; s < 2; ++s) {
        total[s] = 0;
        for (const ForceUnit& u : in.sides[s].units)
            total[s] += u.reduced ? 1 : 2;
    }
    const int big = std::max(total[0], total[1]);
    QList<Stand> stands[2];
    bool limberAll[2] = {false, false};
    bool initiative = false;
    bool fortify[2] = {false, false};
    for (int s = 0; s < 2; ++s) {
        const int budget = big > cap ? std::max(1, int(std::lround(double(total[s]) * cap / big))) : total[s];
        stands[s] = forceStands(in.sides[s], m, in.year, budget);
        // Cannon: 1 + 1 per perUnits campaign units, Swedish regimental guns, at most 4 (7.3.2).
        const QJsonObject c = m.value(QStringLiteral("cannon")).toObject();
        int cannon =
            c.value(QStringLiteral("base")).toInt(1) +
            int(in.sides[s].units.size()) / std::max(1, c.value(QStringLiteral("perUnits")).toInt(6));
        const QJsonObject rg = c.value(QStringLiteral("regimentalGuns")).toObject();
        for (const ForceUnit& u : in.sides[s].units)
            if (u.nationality == rg.value(QStringLiteral("nationality")).toString() &&
                in.year >= rg.value(QStringLiteral("from")).toInt()) {
                cannon += rg.value(QStringLiteral("extra")).toInt();
                notes << QStringLiteral("%1: regimental guns (Swedish, after 1630): +%2 Cannon")
                             .arg(in.sides[s].name)
                             .arg(rg.value(QStringLiteral("extra")).toInt());
                break;
            }
        for (int k = 0; k < cannon; ++k)
            stands[s] << Stand{QStringLiteral("Cannon"), QStringLiteral("raw"), QString(), QString(),
                               QStringLiteral("artillery")};
    }
    // Combat cards (the mapping's "cards", keyed by title).
    const QJsonObject cards = m.value(QStringLiteral("cards")).toObject();
    QList<std::pair<int, QJsonObject>> later; // upgrades/downgrades after the caps
    for (int s = 0; s < 2; ++s)
        for (const QString& title : in.sides[s].cards) {
            const QJsonObject e = cards.value(title).toObject();
            if (e.isEmpty()) {
                notes
                    << QStringLiteral("%1 played '%2': no mapping (no effect)").arg(in.sides[s].name, title);
                continue;
            }
            // A card the enemy's card cancels (the mapping's "cancelledBy": Furia Franchese cancels Field
            // Fortifications, P47) has no effect.
            if (const QString by = e.value(QStringLiteral("cancelledBy")).toString();
                !by.isEmpty() && in.sides[1 - s].cards.contains(by)) {
                notes << QStringLiteral("%1 played %2: cancelled by %3, played by %4 (no effect).")
                             .arg(in.sides[s].name, title, by, in.sides[1 - s].name);
                continue;
            }
            const int who = e.value(QStringLiteral("who")).toString() == QLatin1String("enemy") ? 1 - s : s;
            const QString eff = e.value(QStringLiteral("effect")).toString();
            notes << QStringLiteral("%1 played %2. %3")
                         .arg(in.sides[s].name, title, e.value(QStringLiteral("note")).toString());
            if (eff == QLatin1String("limberCannon"))
                limberAll[who] = true;
            else if (eff == QLatin1String("initiative")) {
                initiative = true;
                limberAll[1] = true;
            } else if (eff == QLatin1String("fortify"))
                fortify[who] = true;
            else if (eff == QLatin1String("addUnit")) {
                const QString type = e.value(QStringLiteral("type")).toString();
                stands[who] << Stand{type,
                                     e.value(QStringLiteral("quality")).toString(QStringLiteral("ordinary")),
                                     e.value(QStringLiteral("nationality")).toString(),
                                     QStringLiteral("veteran"), QStringLiteral("%1 (%2)").arg(type, title)};
            } else if (eff == QLatin1String("upgrade") || eff == QLatin1String("downgrade"))
                later << std::pair{who, e};
        }
    // The situation (docs/battle-export.md "Special rules from the situation").
    if (in.sally || in.relief) {
        fortify[1] = true; // the besiegers in their siege lines (16.5 field fortifications)
        notes << (in.sally
                      ? QStringLiteral("Sally (13.17): %1 out of the besieged %2, which stands behind "
                                       "its lines; %3 %4 siege lines (16.5 field fortifications in "
                                       "front of %4 centre). If the sally fails, the garrison falls back "
                                       "into the town (no pursuit beyond it).")
                            .arg(tactical::subject(in.sides[0].name, "attacks"), in.city,
                                 tactical::subject(in.sides[1].name, "holds"),
                                 tactical::its(in.sides[1].name))
                      : QStringLiteral("Relief of a siege (13.15): %1 %2 besiegers, who hold "
                                       "their siege lines (16.5 field fortifications in front of their "
                                       "centre) with %3 behind them.%4 If the relief fails, the garrison "
                                       "stays in the town.")
                            .arg(tactical::subject(in.sides[0].name, "attacks"),
                                 tactical::possessive(in.sides[1].name), in.city)
                            .arg(in.garrison > 0
                                     ? QStringLiteral(" %1 of the attacker's campaign units are the garrison "
                                                      "of the town (13.15).")
                                           .arg(in.garrison)
                                     : QString()));
    } else if (in.fortress)
        notes << QStringLiteral("%1 is a fortress: two sections of field fortifications (16.5) cover the "
                                "front of the town; either side may garrison them with infantry or Cannon.")
                     .arg(in.city);
    if (in.neutralArea)
        notes << QStringLiteral("A Neutral Area (5.13): %1 keeps its gates shut; no unit may enter the town "
                                "(a piece of the scenario's impassable terrain, 8.2, lies over it: "
                                "'closed-town').")
                     .arg(in.city.isEmpty() ? QStringLiteral("the town") : in.city);
    // A Dynamic (starred) army commander: TVBD Commanders are all alike (7.3), so each star makes one more
    // of his army's ordinary Pike+Shot or Horse superior (16.3), after the cards.
    QList<std::pair<int, QJsonObject>> stars;
    for (int s = 0; s < 2; ++s)
        if (!in.sides[s].leaders.isEmpty() && in.sides[s].leaders.first().stars > 0) {
            const ForceLeader& l = in.sides[s].leaders.first();
            stars << std::pair{
                s, QJsonObject{{QStringLiteral("effect"), QStringLiteral("upgrade")},
                               {QStringLiteral("from"), QStringLiteral("ordinary")},
                               {QStringLiteral("count"), std::min(2, l.stars)},
                               {QStringLiteral("types"),
                                QJsonArray{QStringLiteral("PikeShot"), QStringLiteral("Horse")}}}};
            notes << QStringLiteral("%1 is a Dynamic leader (%2): %3 more ordinary Pike+Shot or Horse "
                                    "of %4 %5 superior (16.3).")
                         .arg(l.name, counted(l.stars, "star"))
                         .arg(std::min(2, l.stars))
                         .arg(in.sides[s].name,
                              std::min(2, l.stars) == 1 ? QStringLiteral("is") : QStringLiteral("are"));
        }
    later << stars;
    // 7.3.2: only Spanish armies outside Iberia and German Catholic (Imperial, League) armies have Light
    // Horse; another army's Light Horse stands (Hungarians with the Bohemians, a card's Croats) fight as
    // Horse.
    QString nationality[2];
    for (int s = 0; s < 2; ++s) {
        nationality[s] = armyNationality(in.sides[s]);
        if (!rules.lightHorseNations.contains(nationality[s])) {
            notes << QStringLiteral("%1: nationality '%2' is not one TVBD 7.3.2 knows: its Light Horse are "
                                    "not checked")
                         .arg(in.sides[s].name, nationality[s]);
            nationality[s].clear();
            continue;
        }
        if (rules.lightHorseNations.value(nationality[s]))
            continue;
        int n = 0;
        for (Stand& st : stands[s])
            if (st.type == QLatin1String("LightHorse")) {
                st.type = QStringLiteral("Horse");
                ++n;
            }
        if (n > 0)
            notes << QStringLiteral("%1 a %2 army: only Spanish armies outside Iberia and German Catholic "
                                    "armies have Light Horse (7.3.2), so %3 %4 %5 Horse.")
                         .arg(tactical::subject(in.sides[s].name, "is"), natName(nationality[s]),
                              tactical::its(in.sides[s].name), counted(n, "Light Horse stand"),
                              n == 1 ? QStringLiteral("is") : QStringLiteral("are"));
    }
    // Caps (7.3.2): at most 4 Cannon; at most 2 each of the capped types, the surplus converted.
    const QJsonObject caps = m.value(QStringLiteral("caps")).toObject();
    for (int s = 0; s < 2; ++s) {
        int cannon = 0;
        for (qsizetype i = stands[s].size() - 1; i >= 0; --i)
            if (stands[s][i].type == QLatin1String("Cannon") && ++cannon > 4) {
                stands[s].removeAt(i);
                notes << QStringLiteral("%1: a Cannon over the limit of 4 (7.3.2) is left out")
                             .arg(in.sides[s].name);
            }
        for (auto it = caps.begin(); it != caps.end(); ++it) {
            if (it.key() == QLatin1String("source"))
                continue;
            int n = 0;
            for (Stand& st : stands[s])
                if (st.type == it.key() && ++n > 2) {
                    st.type = it.value().toString();
                    if (st.type == QLatin1String("PikeShot") && it.key() == QLatin1String("Rabble"))
                        st.quality = QStringLiteral("raw");
                }
        }
    }
    for (const auto& [who, e] : later) {
        const bool up = e.value(QStringLiteral("effect")).toString() == QLatin1String("upgrade");
        const QJsonArray types = e.value(QStringLiteral("types")).toArray();
        const QString nat = e.value(QStringLiteral("nationality")).toString();
        int n = e.value(QStringLiteral("count")).toInt(1);
        for (Stand& st : stands[who]) {
            if (n <= 0)
                break;
            if (!types.isEmpty() && !types.contains(st.type))
                continue;
            if (!nat.isEmpty() && st.nat != nat)
                continue;
            if (st.type == QLatin1String("Cannon") || st.type == QLatin1String("Rabble"))
                continue;
            if (e.contains(QStringLiteral("from")) &&
                st.quality != e.value(QStringLiteral("from")).toString())
                continue;
            if (up && (st.quality == QLatin1String("ordinary") || st.quality == QLatin1String("inferior"))) {
                st.quality = st.quality == QLatin1String("ordinary") ? QStringLiteral("superior")
                                                                     : QStringLiteral("ordinary");
                --n;
            }
        }
        // Unreliable Troops: the enemy's Militia first, then Mercenary stands, start one resolve lower.
        for (const char* kind : {"militia", "mercenary"})
            for (Stand& st : stands[who])
                if (!up && n > 0 && st.kind == QLatin1String(kind) && st.type != QLatin1String("Cannon") &&
                    st.resolveLoss == 0) {
                    st.resolveLoss = 1;
                    --n;
                }
    }

    // Relief (13.15): the garrison's stands (those of the attacker's last `garrison` campaign units,
    // inputFromState puts the units from inside last) leave the relief army for the town.
    QList<Stand> garrison;
    if (in.relief && in.garrison > 0) {
        const int first = int(in.sides[0].units.size()) - in.garrison;
        QList<Stand> rest;
        for (const Stand& st : stands[0])
            (st.unit >= first && garrison.size() < 7 ? garrison : rest) << st;
        if (garrison.size() >= 2 && rest.size() >= 2)
            stands[0] = rest;
        else
            garrison.clear();
        notes << (garrison.isEmpty()
                      ? QStringLiteral("The garrison is too small for a command of its own (7.3.3: two "
                                       "units and a Commander): it marches with the relief army.")
                      : QStringLiteral("The garrison (%1 units) starts in the town behind the besiegers, "
                                       "facing their rear, as a command of its own under the governor.")
                            .arg(garrison.size()));
    }
    // Commands: left-wing horse, foot, guns, right-wing horse, cut into ceil(n/7) chunks of 2..7 stands.
    QList<QList<Stand>> commands[2];
    for (int s = 0; s < 2; ++s) {
        QList<Stand> cav, foot, guns;
        for (const Stand& st : stands[s])
            (isCav(st.type) ? cav : st.type == QLatin1String("Cannon") ? guns : foot) << st;
        QList<Stand> ordered = cav.mid(0, cav.size() / 2) + foot + guns + cav.mid(cav.size() / 2);
        const int n = int(ordered.size());
        const int k = (n + 6) / 7;
        int pos = 0;
        for (int c = 0; c < k; ++c) {
            const int size = n / k + (c < n % k ? 1 : 0);
            commands[s] << ordered.mid(pos, size);
            pos += size;
        }
    }

    // Table size from the larger side (stands and Commanders).
    int most = 0; // a relieved town's garrison is on the table too: its stands and its governor
    for (int s = 0; s < 2; ++s)
        most = std::max(most, int(stands[s].size() + commands[s].size()) +
                                  (s == 0 && !garrison.isEmpty() ? int(garrison.size()) + 1 : 0));
    QString size = QStringLiteral("big");
    for (const QJsonValue& v : m.value(QStringLiteral("tables")).toArray())
        if (most <= v.toObject().value(QStringLiteral("maxStands")).toInt()) {
            size = v.toObject().value(QStringLiteral("size")).toString();
            break;
        }
    const double W = size == QLatin1String("small") ? 30 : size == QLatin1String("giant") ? 60 : 45;
    const double D = 30;
    const double CW = size == QLatin1String("small") ? 16 : size == QLatin1String("giant") ? 30 : 24;
    const double front = D / 2 - 4 - 1.5; // 1 TUM behind the deployment line (10.6: 4 TUM short of centre)
    // The site: river, roads, month (site.h), from a random stream of its own.
    wp::rules::Rng siteRng(seed ^ 0x517e5ULL);
    SiteShape shape;
    shape.W = W;
    shape.D = D;
    shape.riverWidth = 2.5; // 8.4: rivers about 2-3 TUM, streams about 0.5 TUM
    shape.streamWidth = 0.5;
    shape.streamAcross = true;
    shape.neutralLo = D / 2 - 4;
    shape.neutralHi = D / 2 + 4;
    shape.flankMin = 2;
    shape.flankMax = 3.5;
    shape.townW = 4;
    shape.townD = 2.5;
    // A sally comes out of the town; a relief finds the besieged town behind the besiegers (13.15).
    shape.townDepth = in.sally ? D / 2 - 2 : in.relief ? D - 3.5 : D / 2 + 2;
    const SitePlan site = planSite(in, map.sites, shape, siteRng);

    QJsonObject root;
    root.insert(QStringLiteral("format"), QStringLiteral("westphalia-tactical-scenario"));
    root.insert(QStringLiteral("version"), 1);
    root.insert(QStringLiteral("rules"), QStringLiteral("tvbd"));
    root.insert(QStringLiteral("title"), in.title);
    root.insert(QStringLiteral("size"), size);
    QJsonArray sides;
    for (int s = 0; s < 2; ++s) { // 7.3.2: the nationality, when TVBD knows it
        QJsonObject so{{QStringLiteral("name"), in.sides[s].name}};
        if (!nationality[s].isEmpty())
            so.insert(QStringLiteral("nationality"), nationality[s]);
        sides << so;
    }
    root.insert(QStringLiteral("sides"), sides);
    root.insert(QStringLiteral("attacker"), 0);
    root.insert(QStringLiteral("seed"), qint64(seed % 1000000007ULL));
    if (initiative)
        root.insert(QStringLiteral("options"),
                    QJsonObject{{QStringLiteral("attackerAlwaysInitiative"), true}});

    // ---- The terrain first (the site, then the rulebook's procedure or the Area's table), then the armies
    // around it (docs/battle-export.md "Terrain").
    QJsonArray terrain, decor;
    // Field fortification sections (16.5): the fortress's with the site, the lines' over the deployed stands.
    int worksNo = 0;
    auto addWorks = [&](QPointF c) {
        terrain << QJsonObject{{QStringLiteral("id"), QStringLiteral("works-%1").arg(++worksNo)},
                               {QStringLiteral("type"), QStringLiteral("fortification")},
                               {QStringLiteral("shape"), QStringLiteral("rect")},
                               {QStringLiteral("centre"), QJsonArray{c.x(), c.y()}},
                               {QStringLiteral("w"), 2},
                               {QStringLiteral("d"), 0.3}};
    };
    QList<QPointF> works; // the lines' sections, laid once the stands have their places
    auto uni = [&](double a, double b) { return a + (b - a) * rng.below(1001) / 1000.0; };
    auto pt = [](double x, double y) { return QJsonArray{x, y}; };
    auto line = [&](const QList<QPointF>& l) {
        QJsonArray a;
        for (const QPointF& q : l)
            a << pt(std::round(q.x() * 100) / 100, std::round(q.y() * 100) / 100);
        return a;
    };
    QList<Slot> used;
    const double tx = site.town.x();
    terrain << QJsonObject{
        {QStringLiteral("id"), QStringLiteral("town")},
        {QStringLiteral("type"), QStringLiteral("town")},
        {QStringLiteral("name"), in.city + (in.fortress ? QStringLiteral(" (fortress)") : QString())},
        {QStringLiteral("shape"), QStringLiteral("rect")},
        {QStringLiteral("centre"), pt(tx, site.town.y())},
        {QStringLiteral("w"), 4},
        {QStringLiteral("d"), 2.5}};
    used << Slot{tx, site.town.y()};
    for (qsizetype r = 0; r < site.roads.size(); ++r) {
        QJsonObject ro{
            {QStringLiteral("id"), r == 0 ? QStringLiteral("road") : QStringLiteral("road-%1").arg(r + 1)},
            {QStringLiteral("type"), QStringLiteral("road")},
            {QStringLiteral("shape"), QStringLiteral("line")},
            {QStringLiteral("points"), line(site.roads[r].line)}};
        if (!site.roads[r].to.isEmpty())
            ro.insert(QStringLiteral("name"), QStringLiteral("road to %1").arg(site.roads[r].to));
        terrain << ro;
    }
    if (!site.riverKind.isEmpty()) {
        const bool river = site.riverKind == QLatin1String("river");
        terrain << QJsonObject{{QStringLiteral("id"), QStringLiteral("river")},
                               {QStringLiteral("type"), site.riverKind},
                               {QStringLiteral("name"), site.river},
                               {QStringLiteral("shape"), QStringLiteral("line")},
                               {QStringLiteral("points"), line(site.riverLine)},
                               {QStringLiteral("width"), site.riverWidth}};
        int k = 0;
        for (const SiteCrossing& c : site.crossings) {
            // A crossing as wide as a unit along the water, reaching over both banks (8.2: difficult), or to
            // the town on the bank (0.5 TUM from it, site.cpp): the pieces meet, they do not overlap.
            const double along = shape.crossingAlong, over = site.riverWidth + 1.5;
            double x0 = c.at.x() - (site.riverOnFlank ? over : along) / 2,
                   x1 = c.at.x() + (site.riverOnFlank ? over : along) / 2;
            double y0 = c.at.y() - (site.riverOnFlank ? along : over) / 2,
                   y1 = c.at.y() + (site.riverOnFlank ? along : over) / 2;
            const double tx0 = tx - shape.townW / 2, tx1 = tx + shape.townW / 2,
                         ty0 = site.town.y() - shape.townD / 2, ty1 = site.town.y() + shape.townD / 2;
            if (x0 < tx1 && tx0 < x1 && y0 < ty1 && ty0 < y1) { // cut at the town's side
                if (site.riverOnFlank && tx0 >= c.at.x())
                    x1 = tx0;
                else if (site.riverOnFlank)
                    x0 = tx1;
                else if (ty0 >= c.at.y())
                    y1 = ty0;
                else
                    y0 = ty1;
                // both bounds inward to 0.02 TUM, so the centre and size written (to 0.01) keep them
                x0 = std::ceil(x0 * 50) / 50, x1 = std::floor(x1 * 50) / 50;
                y0 = std::ceil(y0 * 50) / 50, y1 = std::floor(y1 * 50) / 50;
            }
            const auto r2 = [](double v) { return std::round(v * 100) / 100; };
            terrain << QJsonObject{
                {QStringLiteral("id"), QStringLiteral("%1-%2").arg(c.bridge ? "bridge" : "ford").arg(++k)},
                {QStringLiteral("type"), c.bridge ? QStringLiteral("bridge") : QStringLiteral("ford")},
                {QStringLiteral("name"), c.road.isEmpty()
                                             ? QStringLiteral("ford over the %1").arg(site.river)
                                             : QStringLiteral("bridge on the road to %1").arg(c.road)},
                {QStringLiteral("shape"), QStringLiteral("rect")},
                {QStringLiteral("centre"), pt(r2((x0 + x1) / 2), r2((y0 + y1) / 2))},
                {QStringLiteral("w"), r2(x1 - x0)},
                {QStringLiteral("d"), r2(y1 - y0)}};
        }
        const QString drawn =
            site.crossings.isEmpty()
                ? QStringLiteral(".")
                : QStringLiteral("; %1 drawn.").arg(counted(site.crossings.size(), "crossing"));
        notes << QStringLiteral("The %2 at %1 (%3): %4%5")
                     .arg(in.city, site.river, site.riverSource,
                          river
                              ? QStringLiteral("a river along the %1 flank, impassable except at its bridges "
                                               "and fords (8.2; Cannon cross only at a bridge)")
                                    .arg(site.riverLine.first().x() < W / 2 ? QStringLiteral("left")
                                                                            : QStringLiteral("right"))
                              : QStringLiteral("a stream across the neutral zone, difficult along its whole "
                                               "length (8.2); Cannon cross only at a bridge"),
                          drawn);
    }
    notes << site.notes;
    // A Neutral Area's town keeps its gates shut (5.13): the rulebook's scenario impassable terrain (8.2, the
    // module's "marsh" type) over it, so the engine keeps every unit out.
    if (in.neutralArea)
        terrain << QJsonObject{
            {QStringLiteral("id"), QStringLiteral("closed-town")},
            {QStringLiteral("type"), QStringLiteral("marsh")},
            {QStringLiteral("name"), QStringLiteral("%1: gates shut (5.13), impassable")
                                         .arg(in.city.isEmpty() ? QStringLiteral("the town") : in.city)},
            {QStringLiteral("shape"), QStringLiteral("rect")},
            {QStringLiteral("centre"), pt(tx, site.town.y())},
            {QStringLiteral("w"), 4},
            {QStringLiteral("d"), 2.5}};
    // The fortress's works before the town (16.5.2), part of the site: the 10.4 procedure's features keep
    // off them as off the town (its layout check counts the scenario's own terrain).
    if (in.fortress && !in.sally && !in.relief)
        for (double dx : {-1.0, 1.0})
            addWorks(QPointF(tx + dx, site.town.y() - 1.25 - 0.15));
    // 8.2: only in-season (or enclosed) fields are difficult; bare fields are drawn, without effect.
    auto addFeature = [&](const QJsonObject& piece) {
        if (piece.value(QStringLiteral("type")).toString() == QLatin1String("field") && !site.cropsStanding)
            decor << piece;
        else
            terrain << piece;
    };
    const QString method = m.value(QStringLiteral("terrainProcedure")).toString(QStringLiteral("tvbd"));
    if (method != QLatin1String("area")) {
        // The rulebook's placement (10.4: the defender places 1-4 / 2-6 features and roads, the attacker
        // makes one change; issue 10's procedure, model/tactical/tvbd_setup.cpp) on the table with the site
        // already on it and the armies not yet deployed.
        wp::tactical::BattleState pre;
        QString why;
        wp::tactical::TerrainProcedureResult res;
        const QJsonObject areas = m.value(QStringLiteral("areas")).toObject();
        if (!wp::tactical::scenarioFromJson(undeployed(root, terrain, commands), QStringLiteral("export"),
                                            rules, &pre, &why))
            res.error = why;
        else if (method == QLatin1String("cards"))
            res = wp::tactical::runTerrainProcedure(rules, pre, seed, wp::tactical::TerrainMethod::Cards);
        else
            res = wp::tactical::runTerrainProcedure(
                rules, pre, seed, wp::tactical::TerrainMethod::Basic,
                areaDefender(areas.value(in.area).isObject()
                                 ? areas.value(in.area).toObject()
                                 : areas.value(QStringLiteral("default")).toObject()));
        if (res.ok) {
            for (const QJsonValue& v : res.json)
                addFeature(v.toObject());
            notes << (method == QLatin1String("cards")
                          ? QStringLiteral(
                                "Terrain by the rulebook's terrain cards (16.6), on the site, before "
                                "deployment:")
                          : QStringLiteral(
                                "Terrain by the rulebook's procedure (10.4), on the site, before "
                                "deployment; the defender's features drawn by the character of %1:")
                                .arg(areas.value(in.area).isObject()
                                         ? QStringLiteral("the Area (%1)").arg(in.area)
                                         : QStringLiteral("the country (the mapping's default)")));
            for (const QString& l : res.log)
                notes << QStringLiteral("  ") + l;
        } else
            notes << QStringLiteral("The %1 terrain procedure could not run (%2): the site only.")
                         .arg(method == QLatin1String("cards") ? QStringLiteral("16.6")
                                                               : QStringLiteral("10.4"),
                              res.error);
    } else {
        // "terrainProcedure": "area": the Area's features by the mapping's table: hills anywhere, the
        // others in the neutral zone, away from each other and the town.
        const QJsonObject areas = m.value(QStringLiteral("areas")).toObject();
        const QJsonObject feat = areas.value(in.area).isObject()
                                     ? areas.value(in.area).toObject()
                                     : areas.value(QStringLiteral("default")).toObject();
        int fid = 0;
        const double xLo = std::max(4.0, site.freeLo + 3), xHi = std::min(W - 4, site.freeHi - 3);
        for (auto it = feat.begin(); it != feat.end(); ++it) {
            const QString type = it.key();
            for (int n = 0; n < it.value().toInt(); ++n) {
                const bool gentle = type == QLatin1String("gentleHill");
                double x = 0, y = 0;
                for (int tries = 0; tries < 30; ++tries) {
                    x = uni(xLo, xHi);
                    y = gentle ? uni(4, D - 4) : uni(D / 2 - 1.5, D / 2 + 1.5);
                    bool clear = true;
                    for (const Slot& u : used)
                        clear = clear && std::hypot(u.x - x, u.y - y) > (gentle ? 4 : 7);
                    if (clear)
                        break;
                }
                if (!gentle)
                    used << Slot{x, y};
                const double rx = gentle ? uni(4, 7) : uni(2, 3.5), ry = gentle ? uni(2, 3.5) : 1.5;
                addFeature(QJsonObject{{QStringLiteral("id"), QStringLiteral("%1-%2").arg(type).arg(++fid)},
                                       {QStringLiteral("type"), type},
                                       {QStringLiteral("shape"), QStringLiteral("ellipse")},
                                       {QStringLiteral("centre"), pt(x, y)},
                                       {QStringLiteral("rx"), rx},
                                       {QStringLiteral("ry"), ry}});
            }
        }
    }
    if (!decor.isEmpty())
        notes << QStringLiteral("%1 out of season: open ground, drawn for the look only (8.2).")
                     .arg(counted(decor.size(), "field"));

    // The terrain as the engine sees it (classes and pieces), to deploy around it.
    QList<wp::tactical::TerrainFeature> feats;
    {
        wp::tactical::BattleState chk;
        QString why;
        if (wp::tactical::scenarioFromJson(undeployed(root, terrain, commands), QStringLiteral("export"),
                                           rules, &chk, &why))
            feats = chk.terrain;
    }
    QList<wp::tactical::Pose> taken; // what is already on the table (stands and Commanders, both sides)
    // Whether a unit may start at p: never on impassable terrain (8.2), in a town or village, or on another
    // unit; Cannon never in difficult terrain (12.1.6); `open` asks for open ground.
    auto fits = [&](const wp::tactical::Pose& p, const QString& type, bool open, bool inTown) {
        using wp::tactical::TerrainClass;
        for (const wp::tactical::TerrainFeature& f : feats) {
            const bool settlement = f.type == QLatin1String("town") || f.type == QLatin1String("village");
            const bool block = f.cls == TerrainClass::Impassable || (settlement && !inTown) ||
                               (f.cls == TerrainClass::Difficult && !settlement &&
                                (open || type == QLatin1String("Cannon")));
            if (block)
                for (const wp::tactical::Polygon& piece : f.pieces)
                    if (wp::tactical::overlaps(p, piece, 1e-3))
                        return false;
        }
        for (const wp::tactical::Pose& q : taken)
            if (wp::tactical::overlaps(p, q, 0.01))
                return false;
        for (const wp::tactical::Vec2& c : p.polygon())
            if (c.x < 0 || c.y < 0 || c.x > W || c.y > D)
                return false;
        return true;
    };
    const wp::tactical::TypeInfo& cti = rules.type(wp::tactical::UnitType::Commander);
    // The Commander's place among `cands` (in order of preference): the first within the command radius
    // of every stand of its command (12.1.1), else the nearest to the farthest; the worst distance in *worst.
    auto commanderAt = [&](const QList<wp::tactical::Pose>& members, const QList<QPointF>& cands, int side,
                           bool inTown, double* worst) {
        QPointF best = cands.isEmpty() ? QPointF(W / 2, D / 2) : cands.first();
        *worst = 1e9;
        for (const QPointF& c : cands) {
            const wp::tactical::Pose p{{c.x(), c.y()}, side == 0 ? 90.0 : 270.0, cti.w, cti.d};
            if (!fits(p, QStringLiteral("Commander"), false, inTown))
                continue;
            double far = 0;
            for (const wp::tactical::Pose& u : members)
                far = std::max(far, wp::tactical::distance(p, u));
            if (far < *worst - 1e-9) {
                *worst = far;
                best = c;
            }
            if (far <= rules.commandRadius)
                break;
        }
        return best;
    };

    // Relief (13.15): the garrison's stands start in the town behind the besiegers, facing their rear, as a
    // command of their own under the governor (at least two stands, at most seven; else they march with
    // the relief army).
    QList<std::pair<Stand, QPointF>> garrisoned;
    if (!garrison.isEmpty()) {
        const double gx = site.town.x(), gy = site.town.y();
        QList<QPointF> cand;
        for (double dy : {-0.6, 0.6, 2.1, -2.1})
            for (double dx : {-1.0, 1.0, -3.3, 3.3})
                cand << QPointF(gx + dx, gy + dy);
        QList<Stand> left;
        for (const Stand& st : garrison) {
            bool ok = false;
            for (const QPointF& c : cand) {
                const auto t = wp::tactical::typeFromName(st.type);
                const wp::tactical::TypeInfo& ti = rules.type(t.value_or(wp::tactical::UnitType::PikeShot));
                const wp::tactical::Pose p{{c.x(), c.y()}, 270, ti.w, st.large ? 2 * ti.d : ti.d};
                if (fits(p, st.type, false, true)) {
                    garrisoned << std::pair{st, c};
                    taken << p;
                    ok = true;
                    break;
                }
            }
            if (!ok)
                left << st;
        }
        if (garrisoned.size() < 2) {
            for (const auto& g : garrisoned)
                left << g.first;
            garrisoned.clear();
            taken.clear();
        }
        commands[0].last() << left;
        if (garrisoned.isEmpty())
            notes << QStringLiteral("There is no room for the garrison in the town: it marches with the "
                                    "relief army.");
        else if (!left.isEmpty())
            notes << QStringLiteral("%1 of the garrison's units find no room in the town and march with "
                                    "the relief army.")
                         .arg(left.size());
    }

    // Units: slots per sector, rows 2.5 TUM apart from the front line back; side 1 mirrored in y.
    QJsonArray cmds;
    for (int s = 0; s < 2; ++s) {
        auto sector = [&](double xa, double xb) {
            QList<Slot> out;
            const int per = int(std::floor((xb - xa) / 2.5));
            const double x0 = xa + ((xb - xa) - per * 2.5) / 2 + 1.25;
            for (int r = 0; r < 4; ++r)
                for (int i = 0; i < per; ++i)
                    if (x0 + i * 2.5 - 1.1 >= site.freeLo && x0 + i * 2.5 + 1.1 <= site.freeHi)
                        out << Slot{x0 + i * 2.5, front - r * 2.5}; // clear of a river on the flank
            return out;
        };
        QList<Slot> centre = sector(W / 2 - CW / 2, W / 2 + CW / 2);
        QList<Slot> left = sector(0, W / 2 - CW / 2), right = sector(W / 2 + CW / 2, W);
        // Pike+Shot first into the centre (tilly-digest 11.5: every Pike+Shot starts in the centre zone).
        QHash<int, Slot> placed; // flat stand index -> slot
        QList<const Stand*> flat;
        for (qsizetype c = 0; c < commands[s].size(); ++c)
            for (const Stand& st : commands[s][c])
                flat << &st;
        // A stand's footprint at a slot (a Large Pike+Shot reaches one stand further back).
        auto poseAt = [&](const Stand& st, const Slot& sl) {
            const auto t = wp::tactical::typeFromName(st.type);
            const wp::tactical::TypeInfo& ti = rules.type(t.value_or(wp::tactical::UnitType::PikeShot));
            const double y = sl.y - (st.large ? 0.5 : 0);
            return wp::tactical::Pose{
                {sl.x, s == 0 ? y : D - y}, s == 0 ? 90.0 : 270.0, ti.w, st.large ? 2 * ti.d : ti.d};
        };
        // The first slot of the list where the stand fits on open ground, else where it may stand at all.
        qsizetype lastTaken = -1;
        QHash<int, qsizetype> takenAt; // flat stand index -> its footprint in `taken`
        auto take = [&](QList<Slot>& l, const Stand& st, Slot* out) {
            for (int tier = 0; tier < 2; ++tier)
                for (qsizetype i = 0; i < l.size(); ++i) {
                    const wp::tactical::Pose p = poseAt(st, l[i]);
                    if (fits(p, st.type, tier == 0, false)) {
                        *out = l.takeAt(i);
                        taken << p;
                        lastTaken = taken.size() - 1;
                        return true;
                    }
                }
            return false;
        };
        const int cavTotal =
            int(std::count_if(flat.begin(), flat.end(), [](const Stand* p) { return isCav(p->type); }));
        int cavSeen = 0;
        for (int pass = 0; pass < 3; ++pass)
            for (qsizetype i = 0; i < flat.size(); ++i) {
                const Stand& st = *flat[i];
                const int want = st.type == QLatin1String("PikeShot") ? 0 : isCav(st.type) ? 2 : 1;
                if (want != pass)
                    continue;
                Slot sl{};
                bool ok = false;
                if (pass == 0)
                    ok = take(centre, st, &sl) || take(left, st, &sl) || take(right, st, &sl);
                else if (pass == 1)
                    ok = take(centre, st, &sl) || take(left, st, &sl) || take(right, st, &sl);
                else {
                    const bool leftWing = cavSeen++ < cavTotal / 2;
                    ok = leftWing ? (take(left, st, &sl) || take(right, st, &sl) || take(centre, st, &sl))
                                  : (take(right, st, &sl) || take(left, st, &sl) || take(centre, st, &sl));
                }
                if (ok) {
                    placed.insert(int(i), sl);
                    takenAt.insert(int(i), lastTaken);
                } else
                    notes << QStringLiteral("%1: no room to deploy %2 (left out)")
                                 .arg(in.sides[s].name, st.label);
            }
        // Commands are cut from the placed stands in x order (then y) into ceil(n/7) nearly equal ones
        // (7.3.3), so each holds neighbouring stands; a command whose Commander cannot reach every stand
        // within the command radius (12.1.1) is split in two.
        QList<int> byX = placed.keys();
        std::sort(byX.begin(), byX.end(), [&](int a, int b) {
            return placed[a].x != placed[b].x ? placed[a].x < placed[b].x : placed[a].y > placed[b].y;
        });
        QList<QList<int>> groups;
        {
            const int n = int(byX.size()), k0 = std::max(1, (n + 6) / 7);
            int pos = 0;
            for (int c = 0; c < k0; ++c) {
                const int len = n / k0 + (c < n % k0 ? 1 : 0);
                groups << byX.mid(pos, len);
                pos += len;
            }
        }
        QList<QPointF> chief; // each group's Commander
        for (qsizetype c = 0; c < groups.size();) {
            QList<wp::tactical::Pose> members;
            double lo = 1e9, hi = -1e9, mean = 0;
            for (int i : groups[c]) {
                members << poseAt(*flat[i], placed[i]);
                lo = std::min(lo, placed[i].x);
                hi = std::max(hi, placed[i].x);
                mean += placed[i].x / double(groups[c].size());
            }
            // Between the rows (the first gap first, then before the first row), nearest the command's mean
            // x first; a Commander may start in a village or the town (8.2: difficult, not impassable).
            QList<QPointF> cands;
            for (int r = 0; r < 5; ++r) {
                QList<double> xs;
                for (double x = std::max(0.5, std::floor(lo * 4) / 4 - 4);
                     x <= std::min(W - 0.5, hi + 4) + 1e-9; x += 0.25)
                    xs << x;
                std::stable_sort(xs.begin(), xs.end(),
                                 [&](double a, double b) { return std::abs(a - mean) < std::abs(b - mean); });
                const double y = r < 4 ? front - 1.25 - 2.5 * r : front + 1;
                for (double x : xs)
                    cands << QPointF(x, s == 0 ? y : D - y);
            }
            double worst = 0;
            const QPointF at = commanderAt(members, cands, s, true, &worst);
            int weight = 0; // 7.3.3: at most 7 units besides the Commander (a Large Pike+Shot counts two)
            for (int i : groups[c])
                weight += flat[i]->large ? 2 : 1;
            if (weight > 7 || (worst > rules.commandRadius && groups[c].size() >= 4)) {
                const QList<int> g = groups[c];
                groups[c] = g.mid(0, g.size() / 2);
                groups.insert(c + 1, g.mid(g.size() / 2));
                continue;
            }
            chief << at;
            const wp::tactical::Pose cp{{at.x(), at.y()}, s == 0 ? 90.0 : 270.0, cti.w, cti.d};
            taken << cp;
            // Too few stands to split (a small army's wings and guns): the stands beyond the radius move
            // to the free slot nearest the Commander (Pike+Shot within the centre zone).
            if (worst > rules.commandRadius)
                for (int i : groups[c]) {
                    const Stand& st = *flat[i];
                    if (wp::tactical::distance(cp, poseAt(st, placed[i])) <= rules.commandRadius)
                        continue;
                    QList<Slot>* lists[3] = {&centre, &left, &right};
                    QList<Slot>* bl = nullptr;
                    qsizetype bi = -1;
                    double bd = 1e9;
                    for (int l = 0; l < (st.type == QLatin1String("PikeShot") ? 1 : 3); ++l)
                        for (qsizetype j = 0; j < lists[l]->size(); ++j) {
                            const wp::tactical::Pose p = poseAt(st, lists[l]->at(j));
                            const double d = wp::tactical::distance(cp, p);
                            if (d <= rules.commandRadius && d < bd && fits(p, st.type, false, false)) {
                                bd = d;
                                bl = lists[l];
                                bi = j;
                            }
                        }
                    if (bl) {
                        placed[i] = bl->takeAt(bi);
                        taken[takenAt.value(i)] = poseAt(st, placed[i]);
                    }
                }
            ++c;
        }
        for (QList<int>& g : groups)
            std::sort(g.begin(), g.end());
        // The garrison of a relieved town: its own command, the Commander in or by the town.
        const int regular = int(groups.size());
        if (s == 0 && !garrisoned.isEmpty()) {
            QList<int> g;
            QList<wp::tactical::Pose> members;
            for (const auto& [st, c] : garrisoned) {
                const Slot sl{c.x(), c.y() + (st.large ? 0.5 : 0)}; // poseAt's centre is c
                g << int(flat.size());
                flat << &st;
                placed.insert(int(flat.size()) - 1, sl);
                members << poseAt(st, sl);
            }
            QList<QPointF> cands;
            for (double dy = -2.5; dy <= 3.0 + 1e-9; dy += 0.5)
                for (double dx = -5; dx <= 5 + 1e-9; dx += 0.5)
                    cands << QPointF(site.town.x() + dx, site.town.y() + dy);
            std::stable_sort(cands.begin(), cands.end(), [&](QPointF a, QPointF b) {
                return QLineF(a, site.town).length() < QLineF(b, site.town).length();
            });
            double worst = 0;
            const QPointF at = commanderAt(members, cands, 0, true, &worst);
            chief << at;
            taken << wp::tactical::Pose{{at.x(), at.y()}, 270, cti.w, cti.d};
            groups << g;
        }
        const int k = regular;
        QList<int> rank(k);
        {
            QList<int> order(k);
            for (int c = 0; c < k; ++c)
                order[c] = c;
            std::stable_sort(order.begin(), order.end(), [&](int a, int b) {
                return std::abs(2 * a - (k - 1)) < std::abs(2 * b - (k - 1));
            });
            for (int r = 0; r < k; ++r)
                rank[order[r]] = r;
        }
        const QString pre = s == 0 ? QStringLiteral("A") : QStringLiteral("D");
        for (qsizetype c = 0; c < groups.size(); ++c) {
            const bool gar = c >= regular;
            QJsonArray units;
            const ForceLeader* ld =
                !gar && rank[c] < in.sides[s].leaders.size() ? &in.sides[s].leaders[rank[c]] : nullptr;
            QList<QJsonObject> body;
            for (qsizetype j = 0; j < groups[c].size(); ++j) {
                const Stand& st = *flat[groups[c][j]];
                const Slot sl = placed[groups[c][j]];
                const wp::tactical::Pose p = poseAt(st, sl);
                QJsonObject u;
                u.insert(QStringLiteral("id"), QStringLiteral("%1%2-%3").arg(pre).arg(c + 1).arg(j + 1));
                u.insert(QStringLiteral("type"), st.type);
                if (st.type != QLatin1String("Cannon") && st.type != QLatin1String("Rabble"))
                    u.insert(QStringLiteral("quality"), st.quality);
                if (st.large)
                    u.insert(QStringLiteral("large"), true);
                u.insert(QStringLiteral("x"), p.c.x);
                u.insert(QStringLiteral("y"), p.c.y);
                if (gar)
                    u.insert(QStringLiteral("facing"), 270); // toward the besiegers' rear
                if (st.resolveLoss > 0) {
                    const auto t = wp::tactical::typeFromName(st.type);
                    const auto q = wp::tactical::qualityFromName(st.quality);
                    if (t && q)
                        u.insert(QStringLiteral("resolve"),
                                 std::max(1, rules.startResolve(*t, *q, st.large) - st.resolveLoss));
                }
                if (st.type == QLatin1String("Cannon") && limberAll[s])
                    u.insert(QStringLiteral("limbered"), true);
                // 16.5: a field fortification section over the front edge of each first-row infantry or
                // Cannon stand of the centre (stands are 1 TUM deep; side 0 faces +y).
                if (!gar && fortify[s] && !isCav(st.type) && sl.y == front &&
                    std::abs(sl.x - W / 2) <= CW / 2)
                    works << QPointF(sl.x, s == 0 ? sl.y + 0.5 : D - sl.y - 0.5);
                u.insert(QStringLiteral("name"), st.label);
                body << u;
            }
            QJsonObject cu;
            cu.insert(QStringLiteral("id"), QStringLiteral("%1%2-0").arg(pre).arg(c + 1));
            cu.insert(QStringLiteral("type"), QStringLiteral("Commander"));
            cu.insert(QStringLiteral("x"), chief[c].x());
            cu.insert(QStringLiteral("y"), chief[c].y());
            if (gar)
                cu.insert(QStringLiteral("facing"), 270);
            cu.insert(
                QStringLiteral("name"),
                gar  ? QStringLiteral("the governor of %1").arg(in.city)
                : ld ? QStringLiteral("%1 (battle %2%3)")
                           .arg(ld->name)
                           .arg(ld->battle)
                           .arg(ld->stars ? QStringLiteral(", ") + counted(ld->stars, "star") : QString())
                     : QStringLiteral("a colonel"));
            units << cu;
            for (const QJsonObject& u : body)
                units << u;
            QJsonObject co;
            co.insert(QStringLiteral("id"), QStringLiteral("%1%2").arg(pre).arg(c + 1));
            co.insert(QStringLiteral("name"),
                      gar  ? QStringLiteral("the garrison of %1").arg(in.city)
                      : ld ? QStringLiteral("%1's command").arg(ld->name)
                           : QStringLiteral("%1 command %2").arg(in.sides[s].name).arg(c + 1));
            co.insert(QStringLiteral("side"), s);
            co.insert(QStringLiteral("units"), units);
            cmds << co;
        }
        for (qsizetype l = regular; l < in.sides[s].leaders.size(); ++l)
            notes << QStringLiteral("%1: %2 has no command of his own (one Commander per command, 7.3.2)")
                         .arg(in.sides[s].name, in.sides[s].leaders[l].name);
    }
    root.insert(QStringLiteral("commands"), cmds);
    // The victory conditions (15.6, 15.7), for the briefing and the players: each army's units (Commanders
    // are units, a Large Pike+Shot counts two; 7.3, Fig. 6) and breakpoint, the turn limit, and who loses on
    // time.
    {
        int units[2] = {0, 0};
        for (const QJsonValue& c : cmds)
            for (const QJsonValue& u : c.toObject().value(QStringLiteral("units")).toArray())
                units[c.toObject().value(QStringLiteral("side")).toInt()] +=
                    u.toObject().value(QStringLiteral("large")).toBool() ? 2 : 1;
        root.insert(QStringLiteral("turnLimit"), rules.turnLimit);
        root.insert(
            QStringLiteral("victory"),
            QJsonObject{{QStringLiteral("units"), QJsonArray{units[0], units[1]}},
                        {QStringLiteral("armyBreakpoint"),
                         QJsonArray{wp::tactical::TvbdEngine::armyBreakpoint(units[0]),
                                    wp::tactical::TvbdEngine::armyBreakpoint(units[1])}},
                        {QStringLiteral("turnLimit"), rules.turnLimit},
                        {QStringLiteral("rule"),
                         QStringLiteral("15.6: at the end of a turn an army that has lost its breakpoint of "
                                        "units (routed or eliminated) breaks and loses; both in the same "
                                        "turn: a draw. 15.7: no break by the turn limit: the attacker "
                                        "(side 0) loses.")}});
    }
    // The players deploy (10.5-10.6; the mapping's "deploy", battle export --deploy, the export dialog's
    // "players deploy"): the same commands without places, on the terrain laid here; the engine plays the
    // scouting and the alternate deployment.
    if (m.value(QStringLiteral("deploy")).toBool(false)) {
        QJsonArray bare;
        for (const QJsonValue& c : cmds) {
            QJsonObject co = c.toObject();
            QJsonArray us;
            for (const QJsonValue& u : co.value(QStringLiteral("units")).toArray()) {
                QJsonObject uo = u.toObject();
                for (const char* k : {"x", "y", "facing"})
                    uo.remove(QLatin1String(k));
                us << uo;
            }
            co.insert(QStringLiteral("units"), us);
            bare << co;
        }
        root.insert(QStringLiteral("commands"), bare);
        root.insert(QStringLiteral("setup"),
                    QJsonObject{{QStringLiteral("terrain"), QStringLiteral("scenario")},
                                {QStringLiteral("deployment"), QStringLiteral("players")}});
        notes << QStringLiteral(
                     "The players deploy (10.5 scouting, 10.6: alternately by command, each within "
                     "its deployment zone, Pike+Shot in the centre zone) on the terrain above.%1")
                     .arg(garrisoned.isEmpty()
                              ? QString()
                              : QStringLiteral(" The garrison's command deploys in the attacker's zone too "
                                               "(10.6 has no place for it in the town)."));
    }

    for (const QPointF& c : works)
        addWorks(c);
    root.insert(QStringLiteral("terrain"), terrain);
    if (!decor.isEmpty())
        root.insert(QStringLiteral("decor"), decor);

    // The coins as `battle validate` counts them (armyCoins on the scenario as written: the Commanders,
    // 16.3.1, and the manned field-fortification sections, 16.5.6, included).
    wp::tactical::BattleState written;
    QString unread;
    const bool read =
        wp::tactical::scenarioFromJson(root, QStringLiteral("export"), rules, &written, &unread);
    for (int s = 0; s < 2; ++s) {
        int coins = 0, commanders = 0, sections = 0;
        if (read) {
            coins = wp::tactical::armyCoins(rules, written, s, &sections);
            for (const wp::tactical::Unit& u : written.units)
                commanders += u.side == s && u.type == wp::tactical::UnitType::Commander;
        } else { // (the tests load every export; this is a fallback for the note only)
            for (const Stand& st : stands[s]) {
                const auto t = wp::tactical::typeFromName(st.type);
                const auto q = wp::tactical::qualityFromName(st.quality);
                if (t && q)
                    coins += rules.coins(*t, *q, st.large);
            }
            commanders = int(commands[s].size());
        }
        notes << QStringLiteral("%1: %2 units and %3 Commanders, %4 coins (16.3, the Commanders included%5; "
                                "for information: the campaign armies are not balanced)")
                     .arg(in.sides[s].name)
                     .arg(stands[s].size())
                     .arg(commanders)
                     .arg(coins)
                     .arg(sections ? QStringLiteral(", %1 for %2, 16.5.6")
                                         .arg(2 * sections)
                                         .arg(counted(sections, "manned field-fortification section"))
                                   : QString());
    }
    for (int s = 0; s < 2; ++s)
        for (const ForceLeader& l : in.sides[s].leaders)
            notes << QStringLiteral("%1: %2, campaign battle rating %3%4")
                         .arg(in.sides[s].name, l.name)
                         .arg(l.battle)
                         .arg(l.stars ? QStringLiteral(", ") + counted(l.stars, "star") : QString());
    QJsonObject campaign;
    campaign.insert(QStringLiteral("city"), in.city);
    campaign.insert(QStringLiteral("area"), in.area);
    campaign.insert(QStringLiteral("year"), in.year);
    campaign.insert(QStringLiteral("fortress"), in.fortress);
    campaign.insert(QStringLiteral("month"), site.month); // the briefing's date (site.h)
    campaign.insert(QStringLiteral("season"), site.season);
    campaign.insert(QStringLiteral("units"),
                    QJsonArray{int(in.sides[0].units.size()), int(in.sides[1].units.size())});
    root.insert(QStringLiteral("campaign"), campaign);
    root.insert(QStringLiteral("deployment"),
                QJsonObject{{QStringLiteral("side0"), QJsonArray{0, D / 2 - 4}},
                            {QStringLiteral("side1"), QJsonArray{D / 2 + 4, D}},
                            {QStringLiteral("centreZone"), QJsonArray{W / 2 - CW / 2, W / 2 + CW / 2}},
                            {QStringLiteral("source"), QStringLiteral("TVBD v2.0 8.1, 10.6")}});
    root.insert(QStringLiteral("notes"), QJsonArray::fromStringList(notes));
    return root;
}

} // namespace wp::battle
