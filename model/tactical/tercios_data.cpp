// Tercios data: the rules tables (resources/tactical/tercios.json), the value modifiers, the army
// validator, the scenario loader, the per-side view and the text notation of actions (docs/tercios.md).
#include "battle.h"
#include "data/datadir.h"
#include "tercios.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QSet>

#include <algorithm>
#include <functional>

namespace wp::tactical {

namespace {

const char* const kCards[] = {"none", "ready", "assault", "run", "fire", "resist", "hidden"};

unsigned featureBit(const QString& f) {
    static const QHash<QString, unsigned> m = {
        {QStringLiteral("Difficult"), FDifficult},   {QStringLiteral("VeryDifficult"), FVeryDifficult},
        {QStringLiteral("Impassable"), FImpassable}, {QStringLiteral("Hidden"), FHidden},
        {QStringLiteral("Covered"), FCovered},       {QStringLiteral("Height"), FHeight},
        {QStringLiteral("Protected"), FProtected}};
    return m.value(f, 0);
}

unsigned ruleBit(const QString& f) {
    static const QHash<QString, unsigned> m = {{QStringLiteral("Large"), RLarge},
                                               {QStringLiteral("Squares"), RSquares},
                                               {QStringLiteral("ExtendedArc"), RExtendedArc},
                                               {QStringLiteral("Light"), RLight},
                                               {QStringLiteral("Brigade"), RBrigade},
                                               {QStringLiteral("Caracole"), RCaracole},
                                               {QStringLiteral("Dragoon"), RDragoon},
                                               {QStringLiteral("Pikes"), RPikes},
                                               {QStringLiteral("Halberds"), RHalberds}};
    return m.value(f, 0);
}

bool featureList(const QJsonValue& v, unsigned* out, QString* bad) {
    unsigned f = 0;
    for (const QJsonValue& x : v.toArray()) {
        const unsigned b = featureBit(x.toString());
        if (!b) {
            *bad = x.toString();
            return false;
        }
        f |= b;
    }
    *out = f;
    return true;
}

constexpr double kCm = 2.54;

} // namespace

QString cardName(Card c) {
    return QString::fromLatin1(kCards[int(c)]);
}

std::optional<Card> cardFromName(const QString& s) {
    for (int i = 1; i <= 5; ++i)
        if (s.compare(QLatin1String(kCards[i]), Qt::CaseInsensitive) == 0)
            return Card(i);
    return std::nullopt;
}

int modifiedValue(int base, int net) {
    if (base <= 0)
        return 0; // G3: a base of 0 stays 0
    if (net >= 2)
        return 2 * base;
    if (net == 1)
        return base + base / 2;
    if (net == 0)
        return base;
    if (net == -1)
        return base - base / 2;
    return 1;
}

std::optional<std::pair<Value, int>> parseModifierNotation(const QString& text) {
    static const QHash<QString, Value> names = {
        {QStringLiteral("speed"), Value::Speed},    {QStringLiteral("melee"), Value::Melee},
        {QStringLiteral("combat"), Value::Melee},   {QStringLiteral("shoot"), Value::Shoot},
        {QStringLiteral("fire"), Value::Shoot},     {QStringLiteral("discipline"), Value::Discipline},
        {QStringLiteral("courage"), Value::Courage}};
    const QString s = text.trimmed();
    qsizetype i = s.size();
    while (i > 0 && (s[i - 1] == QLatin1Char('+') || s[i - 1] == QLatin1Char('-')))
        --i;
    const QString signs = s.mid(i);
    const QString name = s.left(i).toLower();
    if (!names.contains(name) || signs.isEmpty() || signs.size() > 2 ||
        (signs.contains(QLatin1Char('+')) && signs.contains(QLatin1Char('-'))))
        return std::nullopt;
    const int n = int(signs.size());
    return std::pair{names.value(name), signs[0] == QLatin1Char('+') ? n : -n};
}

const TRegimentDef* TerciosRules::regiment(const QString& id) const {
    for (const TRegimentDef& d : regiments)
        if (d.id == id)
            return &d;
    return nullptr;
}

bool loadTerciosRules(const QString& path, TerciosRules* out, QString* error) {
    QJsonObject root;
    if (!readJsonObject(path, &root, error))
        return false;
    auto fail = [&](const QString& where, const QString& what) {
        *error = QStringLiteral("%1: %2: %3").arg(path, where, what);
        return false;
    };
    TerciosRules r;
    const QJsonObject table = root.value(QStringLiteral("table")).toObject();
    r.tableW = table.value(QStringLiteral("w")).toDouble(72);
    r.tableD = table.value(QStringLiteral("d")).toDouble(48);
    r.turnLimit = root.value(QStringLiteral("turnLimit")).toObject().value(QStringLiteral("value")).toInt(8);
    const QJsonObject bases = root.value(QStringLiteral("bases")).toObject();
    const QJsonObject weapons = root.value(QStringLiteral("weapons")).toObject();
    const QJsonObject profiles = root.value(QStringLiteral("profiles")).toObject();
    if (profiles.isEmpty())
        return fail(QStringLiteral("profiles"), QStringLiteral("missing or empty"));
    for (auto it = profiles.begin(); it != profiles.end(); ++it) {
        const QString where = QStringLiteral("profiles.") + it.key();
        const QJsonObject o = it.value().toObject();
        TProfile p;
        p.id = it.key();
        p.name = o.value(QStringLiteral("name")).toString(p.id);
        const QString type = o.value(QStringLiteral("type")).toString();
        if (type == QLatin1String("Foot"))
            p.type = TType::Foot;
        else if (type == QLatin1String("Horse"))
            p.type = TType::Horse;
        else if (type == QLatin1String("Artillery"))
            p.type = TType::Artillery;
        else
            return fail(where + QStringLiteral(".type"),
                        QStringLiteral("'%1' is not Foot, Horse or Artillery").arg(type));
        p.company = o.value(QStringLiteral("sub")).toString() == QLatin1String("Company");
        const QJsonArray v = o.value(QStringLiteral("values")).toArray();
        const QJsonArray d = o.value(QStringLiteral("def")).toArray();
        if (v.size() != 6)
            return fail(where + QStringLiteral(".values"), QStringLiteral("six numbers are needed"));
        if (d.size() != 4)
            return fail(where + QStringLiteral(".def"), QStringLiteral("four numbers are needed"));
        p.speed = v[0].toInt();
        p.melee = v[1].toInt();
        p.shoot = v[2].toInt();
        p.discipline = v[3].toInt();
        p.courage = v[4].toInt();
        p.stamina = v[5].toInt();
        p.defInf = d[0].toInt();
        p.defCav = d[1].toInt();
        p.defSalvo = d[2].toInt();
        p.defArt = d[3].toInt();
        for (const QJsonValue& w : o.value(QStringLiteral("weapons")).toArray()) {
            const QString name = w.toString();
            if (name == QLatin1String("Pikes"))
                p.rules |= RPikes;
            else if (name == QLatin1String("Halberds"))
                p.rules |= RHalberds;
            else if (weapons.contains(name)) {
                p.weapon = name;
                p.range = weapons.value(name).toObject().value(QStringLiteral("range")).toDouble();
                p.gun = weapons.value(name).toObject().value(QStringLiteral("gun")).toBool();
            } else
                return fail(where + QStringLiteral(".weapons"),
                            QStringLiteral("unknown weapon '%1'").arg(name));
        }
        for (const QJsonValue& x : o.value(QStringLiteral("rules")).toArray()) {
            const unsigned b = ruleBit(x.toString());
            if (!b)
                return fail(where + QStringLiteral(".rules"),
                            QStringLiteral("unknown rule '%1'").arg(x.toString()));
            p.rules |= b;
        }
        const QString base = o.value(QStringLiteral("base")).toString();
        const QJsonArray b = bases.value(base).toArray();
        if (b.size() != 2)
            return fail(where + QStringLiteral(".base"), QStringLiteral("unknown base '%1'").arg(base));
        p.baseW = b[0].toDouble() / kCm;
        p.baseD = b[1].toDouble() / kCm;
        p.score = o.value(QStringLiteral("score")).toInt(1);
        if (o.contains(QStringLiteral("classic"))) {
            const QJsonObject c = o.value(QStringLiteral("classic")).toObject();
            p.classicOption = true;
            p.classicShoot = c.value(QStringLiteral("shoot")).toInt(p.shoot);
            const QJsonArray cb = bases.value(c.value(QStringLiteral("base")).toString()).toArray();
            if (cb.size() != 2)
                return fail(where + QStringLiteral(".classic.base"), QStringLiteral("unknown base"));
            p.classicW = cb[0].toDouble() / kCm;
            p.classicD = cb[1].toDouble() / kCm;
        }
        p.source = o.value(QStringLiteral("source")).toString();
        r.profiles.insert(p.id, p);
        r.profileOrder << p.id;
    }
    const QJsonObject limits = root.value(QStringLiteral("regimentLimits")).toObject();
    for (const char* cat : {"Foot", "Horse", "BattleGroup", "Artillery"}) {
        const QJsonArray a = limits.value(QLatin1String(cat)).toArray();
        if (a.size() != 2)
            return fail(QStringLiteral("regimentLimits.") + QLatin1String(cat),
                        QStringLiteral("[min, max] needed"));
        r.catLimits.insert(QLatin1String(cat), {a[0].toInt(), a[1].toInt()});
    }
    const QJsonObject pts = root.value(QStringLiteral("armyPoints")).toObject();
    r.pointsMin = pts.value(QStringLiteral("min")).toInt(7);
    r.pointsMax = pts.value(QStringLiteral("max")).toInt(12);
    for (const QJsonValue& f : root.value(QStringLiteral("factions")).toArray())
        r.factions << f.toString();
    const QJsonArray regs = root.value(QStringLiteral("regiments")).toArray();
    for (qsizetype i = 0; i < regs.size(); ++i) {
        const QString where = QStringLiteral("regiments[%1]").arg(i);
        const QJsonObject o = regs[i].toObject();
        TRegimentDef d;
        d.id = o.value(QStringLiteral("id")).toString();
        d.name = o.value(QStringLiteral("name")).toString(d.id);
        d.cat = o.value(QStringLiteral("cat")).toString();
        if (!r.catLimits.contains(d.cat))
            return fail(where + QStringLiteral(".cat"), QStringLiteral("unknown category '%1'").arg(d.cat));
        d.cost = o.value(QStringLiteral("cost")).toInt();
        d.slotCount = o.value(QStringLiteral("slots")).toInt(1);
        d.rule = o.value(QStringLiteral("rule")).toString();
        d.classicOption = o.value(QStringLiteral("classicOption")).toBool();
        for (const QJsonValue& f : o.value(QStringLiteral("factions")).toArray()) {
            if (!r.factions.contains(f.toString()))
                return fail(where + QStringLiteral(".factions"),
                            QStringLiteral("unknown faction '%1'").arg(f.toString()));
            d.factions << f.toString();
        }
        const QJsonArray units = o.value(QStringLiteral("units")).toArray();
        for (qsizetype j = 0; j < units.size(); ++j) {
            QStringList alts;
            for (const QJsonValue& x : units[j].toArray()) {
                const QString id = x.toString();
                if (id != QLatin1String("-") && !r.profiles.contains(id))
                    return fail(QStringLiteral("%1.units[%2]").arg(where).arg(j),
                                QStringLiteral("unknown profile '%1'").arg(id));
                alts << id;
            }
            d.units << alts;
        }
        d.source = o.value(QStringLiteral("source")).toString();
        r.regiments << d;
    }
    const QJsonObject tt = root.value(QStringLiteral("terrainTypes")).toObject();
    for (auto it = tt.begin(); it != tt.end(); ++it) {
        const QJsonObject o = it.value().toObject();
        TTerrainType t;
        QString bad;
        if (!featureList(o.value(QStringLiteral("features")), &t.features, &bad))
            return fail(QStringLiteral("terrainTypes.%1.features").arg(it.key()),
                        QStringLiteral("unknown feature '%1'").arg(bad));
        const QJsonArray roll = o.value(QStringLiteral("roll")).toArray();
        for (const QJsonValue& x : roll) {
            unsigned f = 0;
            if (!featureList(x, &f, &bad))
                return fail(QStringLiteral("terrainTypes.%1.roll").arg(it.key()),
                            QStringLiteral("unknown feature '%1'").arg(bad));
            t.roll << f;
        }
        if (!t.roll.isEmpty() && t.roll.size() != 6)
            return fail(QStringLiteral("terrainTypes.%1.roll").arg(it.key()),
                        QStringLiteral("six results are needed"));
        t.rollAll = o.value(QStringLiteral("scope")).toString() == QLatin1String("all");
        r.terrain.insert(it.key(), t);
    }
    for (const QJsonValue& v : root.value(QStringLiteral("endTable")).toArray()) {
        const QJsonObject o = v.toObject();
        r.endTable << TerciosRules::EndRow{o.value(QStringLiteral("turn")).toInt(),
                                           o.value(QStringLiteral("adv")).toInt(),
                                           o.value(QStringLiteral("level")).toString()};
    }
    if (r.endTable.isEmpty())
        return fail(QStringLiteral("endTable"), QStringLiteral("missing"));
    *out = r;
    return true;
}

const TerciosRules* defaultTerciosRules(QString* error) {
    static TerciosRules rules;
    static QString loadError;
    static bool ok = false, tried = false;
    if (!tried) {
        tried = true;
        ok = loadTerciosRules(wp::findDataDir() + QStringLiteral("/resources/tactical/tercios.json"), &rules,
                              &loadError);
    }
    if (!ok && error)
        *error = loadError;
    return ok ? &rules : nullptr;
}

// ---- army building
// -----------------------------------------------------------------------------------------

int armyCost(const TerciosRules& r, const ArmyList& a) {
    int c = 0;
    for (const ArmyRegiment& reg : a.regiments)
        if (const TRegimentDef* d = r.regiment(reg.def))
            c += d->cost;
    return c;
}

namespace {

// Can the units fill the slots (each slot one of its alternatives, or dropped when "-" is allowed)?
// Returns the slot of each unit, or an empty list.
QList<int> matchSlots(const TRegimentDef& d, const QStringList& units) {
    QList<int> slotOf(units.size(), -1);
    QList<bool> used(d.units.size(), false);
    std::function<bool(qsizetype)> go = [&](qsizetype i) -> bool {
        if (i == units.size()) {
            for (qsizetype s = 0; s < d.units.size(); ++s)
                if (!used[s] && !d.units[s].contains(QStringLiteral("-")))
                    return false;
            return true;
        }
        for (qsizetype s = 0; s < d.units.size(); ++s)
            if (!used[s] && d.units[s].contains(units[i])) {
                used[s] = true;
                slotOf[i] = int(s);
                if (go(i + 1))
                    return true;
                used[s] = false;
            }
        return false;
    };
    if (!go(0))
        return {};
    return slotOf;
}

} // namespace

QStringList armyProblems(const TerciosRules& r, const ArmyList& a) {
    QStringList problems;
    if (!r.factions.contains(a.faction))
        problems << QStringLiteral("faction '%1' is not one of %2 (Tercios L826)")
                        .arg(a.faction, r.factions.join(QStringLiteral(", ")));
    QHash<QString, int> count;
    for (qsizetype i = 0; i < a.regiments.size(); ++i) {
        const ArmyRegiment& reg = a.regiments[i];
        const TRegimentDef* d = r.regiment(reg.def);
        const QString where = QStringLiteral("regiment %1 (%2)").arg(i + 1).arg(reg.def);
        if (!d) {
            problems << where + QStringLiteral(": no such regiment in the catalogue (Tercios L860-1037)");
            continue;
        }
        count[d->cat] += d->cat == QLatin1String("Artillery") ? d->slotCount : 1;
        if (!d->factions.isEmpty() && !d->factions.contains(a.faction))
            problems << where + QStringLiteral(": not open to faction %1 (G46: %2)")
                                    .arg(a.faction, d->factions.join(QStringLiteral(", ")));
        QStringList units;
        for (const QString& u : reg.units)
            if (u != QLatin1String("-"))
                units << u;
        const QList<int> slotOf = matchSlots(*d, units);
        if (slotOf.isEmpty()) {
            problems << where + QStringLiteral(": units [%1] do not fit the regiment's slots (%2)")
                                    .arg(units.join(QStringLiteral(", ")), d->source);
            continue;
        }
        // The Swedish brigades: a Veteran in an upgrade slot only when the Musketeers were dropped (G44,
        // G45).
        if (d->rule == QLatin1String("swedish1") || d->rule == QLatin1String("swedishAll")) {
            const bool dropped = !units.contains(QStringLiteral("MusketeersCompany"));
            for (qsizetype k = 0; k < units.size(); ++k) {
                const QStringList& alts = d->units[slotOf[k]];
                if (alts.size() > 1 && units[k] == QLatin1String("VeteranModernSquadron") && !dropped)
                    problems
                        << where +
                               QStringLiteral(
                                   ": a Squadron is upgraded to Veteran but the Musketeers were kept (%1)")
                                   .arg(d->source);
            }
        }
        for (qsizetype k = 0; k < reg.classic.size() && k < reg.units.size(); ++k)
            if (reg.classic[k] && (!d->classicOption || !r.profiles.value(reg.units[k]).classicOption))
                problems << where + QStringLiteral(": the classic option is not open to %1 (Tercios L1066)")
                                        .arg(reg.units[k]);
    }
    for (auto it = r.catLimits.begin(); it != r.catLimits.end(); ++it) {
        const int n = count.value(it.key());
        const QString what = it.key() == QLatin1String("Artillery")
                                 ? QStringLiteral("Artillery Battery slots")
                                 : it.key() + QStringLiteral(" Regiments");
        if (n < it.value()[0])
            problems << QStringLiteral("%1: %2, at least %3 needed (Tercios L841)")
                            .arg(what)
                            .arg(n)
                            .arg(it.value()[0]);
        if (n > it.value()[1])
            problems << QStringLiteral("%1: %2, at most %3 allowed (Tercios L841)")
                            .arg(what)
                            .arg(n)
                            .arg(it.value()[1]);
    }
    const int cost = armyCost(r, a);
    if (cost > a.pointsLimit)
        problems << QStringLiteral("cost %1 points is above the limit of %2 (Tercios L820)")
                        .arg(cost)
                        .arg(a.pointsLimit);
    return problems;
}

// ---- state ---------------------------------------------------------------------------------------------

int TerciosState::indexOf(const QString& id) const {
    for (qsizetype i = 0; i < units.size(); ++i)
        if (units[i].id.compare(id, Qt::CaseInsensitive) == 0)
            return int(i);
    return -1;
}

int TerciosState::roll() {
    ++rolls;
    if (!scripted.isEmpty())
        return scripted.takeFirst();
    return rng.below(6) + 1;
}

QList<int> TerciosState::rollDice(int n) {
    QList<int> d;
    for (int i = 0; i < n; ++i)
        d << roll();
    return d;
}

ArmyList armyOf(const TerciosState& s, int side, int pointsLimit) {
    ArmyList a;
    a.faction = s.faction[side];
    a.pointsLimit = pointsLimit;
    for (const TRegiment& reg : s.regiments) {
        if (reg.side != side)
            continue;
        ArmyRegiment ar;
        ar.def = reg.def;
        for (int u : reg.units) {
            ar.units << s.units[u].profile;
            ar.classic << s.units[u].classic;
        }
        a.regiments << ar;
    }
    return a;
}

TerciosState viewFor(const TerciosState& s, int side) {
    TerciosState v = s;
    // A Brigade card shared by a revealed unit is known too (the sharing was announced; Tercios L752-756).
    QSet<int> shownGroups;
    for (const TUnit& u : s.units)
        if (u.revealed && u.group >= 0)
            shownGroups.insert(u.group);
    for (TUnit& u : v.units)
        if (u.side != side && !u.revealed && u.card != Card::None &&
            !(u.group >= 0 && shownGroups.contains(u.group)))
            u.card = Card::Hidden;
    v.scripted.clear();
    v.rng = wp::rules::Rng(0);
    return v;
}

// ---- scenario ------------------------------------------------------------------------------------------

bool terciosScenarioFromJson(const QJsonObject& root, const QString& file, const TerciosRules& rules,
                             TerciosState* out, QString* error) {
    auto fail = [&](const QString& where, const QString& what) {
        *error = QStringLiteral("%1: %2: %3").arg(file, where, what);
        return false;
    };
    if (root.value(QStringLiteral("format")).toString() != QLatin1String("westphalia-tercios-scenario"))
        return fail(QStringLiteral("format"), QStringLiteral("'westphalia-tercios-scenario' expected"));
    TerciosState s;
    s.title = root.value(QStringLiteral("title")).toString();
    const QJsonObject table = root.value(QStringLiteral("table")).toObject();
    s.tableW = table.value(QStringLiteral("w")).toDouble(rules.tableW);
    s.tableD = table.value(QStringLiteral("d")).toDouble(rules.tableD);
    if (s.tableW < 12 || s.tableD < 12 || s.tableW > 400 || s.tableD > 400)
        return fail(QStringLiteral("table"), QStringLiteral("w and d must be 12..400 inches"));
    s.turnLimit = root.value(QStringLiteral("turnLimit")).toInt(rules.turnLimit);
    if (s.turnLimit < 1 || s.turnLimit > 50)
        return fail(QStringLiteral("turnLimit"), QStringLiteral("must be 1..50"));
    s.pointsLimit = root.value(QStringLiteral("pointsLimit")).toInt(rules.pointsMax);
    if (s.pointsLimit < 1 || s.pointsLimit > 100)
        return fail(QStringLiteral("pointsLimit"), QStringLiteral("must be 1..100"));
    s.attacker = root.value(QStringLiteral("attacker")).toInt(0);
    if (s.attacker != 0 && s.attacker != 1)
        return fail(QStringLiteral("attacker"), QStringLiteral("must be 0 or 1"));
    const QJsonArray sides = root.value(QStringLiteral("sides")).toArray();
    if (sides.size() != 2)
        return fail(QStringLiteral("sides"), QStringLiteral("two sides are needed"));
    for (int i = 0; i < 2; ++i) {
        const QJsonObject o = sides[i].toObject();
        s.sideName[i] =
            o.value(QStringLiteral("name")).toString(i ? QStringLiteral("B") : QStringLiteral("A"));
        s.faction[i] = o.value(QStringLiteral("faction")).toString();
        if (!rules.factions.contains(s.faction[i]))
            return fail(QStringLiteral("sides[%1].faction").arg(i),
                        QStringLiteral("'%1' is not one of %2")
                            .arg(s.faction[i], rules.factions.join(QStringLiteral(", "))));
        s.rank[i] = o.value(QStringLiteral("rank")).toInt(0);
    }
    // "deploy": true: the units have no positions; the battle starts with the deployment (L1501-1505).
    const bool deploy = root.value(QStringLiteral("deploy")).toBool(false);
    // An export has already rolled the orientation (G48) and laid the terrain out for it.
    const QJsonValue orientation =
        root.value(QStringLiteral("deployment")).toObject().value(QStringLiteral("orientation"));
    if (deploy && !orientation.isUndefined()) {
        if (orientation.toString() != QLatin1String("long") &&
            orientation.toString() != QLatin1String("short"))
            return fail(QStringLiteral("deployment.orientation"),
                        QStringLiteral("must be \"long\" or \"short\""));
        s.deployLong = orientation.toString() == QLatin1String("long");
        s.orientationFixed = true;
    }
    const QJsonArray terrain = root.value(QStringLiteral("terrain")).toArray();
    for (qsizetype i = 0; i < terrain.size(); ++i) {
        const QString where = QStringLiteral("terrain[%1]").arg(i);
        const QJsonObject o = terrain[i].toObject();
        TTerrain t;
        t.id = o.value(QStringLiteral("id")).toString(QStringLiteral("t%1").arg(i + 1));
        t.type = o.value(QStringLiteral("type")).toString();
        if (!rules.terrain.contains(t.type))
            return fail(where + QStringLiteral(".type"),
                        QStringLiteral("unknown terrain type '%1'").arg(t.type));
        const TTerrainType& tt = rules.terrain[t.type];
        t.features = tt.features;
        t.large = o.value(QStringLiteral("large")).toBool();
        if (o.contains(QStringLiteral("roll"))) {
            t.roll = o.value(QStringLiteral("roll")).toInt();
            if (tt.roll.isEmpty() || t.roll < 1 || t.roll > 6)
                return fail(where + QStringLiteral(".roll"),
                            QStringLiteral("a roll of 1..6 is only for rolled terrain (Cropland, River)"));
            t.features = tt.roll[t.roll - 1];
        }
        if (o.contains(QStringLiteral("polygon"))) {
            for (const QJsonValue& p : o.value(QStringLiteral("polygon")).toArray()) {
                const QJsonArray xy = p.toArray();
                if (xy.size() != 2)
                    return fail(where + QStringLiteral(".polygon"), QStringLiteral("points are [x, y]"));
                t.poly << Vec2{xy[0].toDouble(), xy[1].toDouble()};
            }
            if (t.poly.size() < 3)
                return fail(where + QStringLiteral(".polygon"),
                            QStringLiteral("at least 3 points are needed"));
            t.poly = convexHull(t.poly);
        } else if (o.contains(QStringLiteral("line"))) {
            // A line of two or more points: one convex piece per segment, all with the piece's id (a
            // River's segments share one flow roll).
            const QJsonArray l = o.value(QStringLiteral("line")).toArray();
            QList<Vec2> pts;
            for (const QJsonValue& v : l) {
                const QJsonArray xy = v.toArray();
                if (xy.size() != 2 || !xy[0].isDouble() || !xy[1].isDouble())
                    return fail(where + QStringLiteral(".line"),
                                QStringLiteral("[[x, y], [x, y], ...] needed (two or more points)"));
                pts << Vec2{xy[0].toDouble(), xy[1].toDouble()};
            }
            if (pts.size() < 2)
                return fail(where + QStringLiteral(".line"),
                            QStringLiteral("[[x, y], [x, y], ...] needed (two or more points)"));
            const double width =
                o.value(QStringLiteral("width")).toDouble(t.type == QLatin1String("River") ? 3 : 0.5);
            t.linear = t.type == QLatin1String("Wall") || t.type == QLatin1String("Fence");
            for (qsizetype k = 1; k < pts.size(); ++k) {
                if ((pts[k] - pts[k - 1]).length() < 0.5)
                    return fail(where + QStringLiteral(".line[%1]").arg(k),
                                QStringLiteral("less than 0.5\" from the point before"));
                TTerrain seg = t;
                seg.poly = thickSegment(pts[k - 1], pts[k], width);
                if (k + 1 < pts.size())
                    s.terrain << seg;
                else
                    t = seg;
            }
        } else
            return fail(where, QStringLiteral("a 'polygon' or a 'line' is needed"));
        s.terrain << t;
    }
    const QJsonArray regs = root.value(QStringLiteral("regiments")).toArray();
    if (regs.isEmpty())
        return fail(QStringLiteral("regiments"), QStringLiteral("missing or empty"));
    for (qsizetype i = 0; i < regs.size(); ++i) {
        const QString where = QStringLiteral("regiments[%1]").arg(i);
        const QJsonObject o = regs[i].toObject();
        TRegiment reg;
        reg.id = o.value(QStringLiteral("id")).toString(QStringLiteral("r%1").arg(i + 1));
        reg.def = o.value(QStringLiteral("def")).toString();
        const TRegimentDef* def = rules.regiment(reg.def);
        if (!def)
            return fail(where + QStringLiteral(".def"), QStringLiteral("unknown regiment '%1'").arg(reg.def));
        reg.name = o.value(QStringLiteral("name")).toString(def->name);
        reg.side = o.value(QStringLiteral("side")).toInt(-1);
        if (reg.side != 0 && reg.side != 1)
            return fail(where + QStringLiteral(".side"), QStringLiteral("must be 0 or 1"));
        const QJsonArray units = o.value(QStringLiteral("units")).toArray();
        if (units.isEmpty())
            return fail(where + QStringLiteral(".units"), QStringLiteral("missing or empty"));
        for (qsizetype j = 0; j < units.size(); ++j) {
            const QString uw = QStringLiteral("%1.units[%2]").arg(where).arg(j);
            const QJsonObject uo = units[j].toObject();
            TUnit u;
            u.id = uo.value(QStringLiteral("id")).toString();
            if (u.id.isEmpty() || u.id.contains(QLatin1Char(' ')))
                return fail(uw + QStringLiteral(".id"),
                            QStringLiteral("a non-empty id without spaces is needed"));
            if (s.indexOf(u.id) >= 0)
                return fail(uw + QStringLiteral(".id"), QStringLiteral("'%1' is used twice").arg(u.id));
            u.profile = uo.value(QStringLiteral("profile")).toString();
            if (!rules.profiles.contains(u.profile))
                return fail(uw + QStringLiteral(".profile"),
                            QStringLiteral("unknown profile '%1'").arg(u.profile));
            const TProfile& p = rules.profiles[u.profile];
            u.name = uo.value(QStringLiteral("name")).toString(p.name);
            u.side = reg.side;
            u.regiment = int(s.regiments.size());
            u.classic = uo.value(QStringLiteral("classic")).toBool();
            if (u.classic && !p.classicOption)
                return fail(uw + QStringLiteral(".classic"),
                            QStringLiteral("%1 has no classic option").arg(p.name));
            for (const char* k : {"x", "y"})
                if (!deploy && !uo.value(QLatin1String(k)).isDouble())
                    return fail(uw + QStringLiteral(".") + QLatin1String(k),
                                QStringLiteral("a number is needed"));
            u.pose.c = {uo.value(QStringLiteral("x")).toDouble(), uo.value(QStringLiteral("y")).toDouble()};
            u.pose.facing = normDeg(uo.value(QStringLiteral("facing")).toDouble(reg.side == 0 ? 90 : 270));
            u.pose.w = u.classic ? p.classicW : p.baseW;
            u.pose.d = u.classic ? p.classicD : p.baseD;
            if (deploy)
                u.status = TStatus::Reserve;
            for (const Vec2 c : u.pose.corners())
                if (!deploy && (c.x < -1e-6 || c.y < -1e-6 || c.x > s.tableW + 1e-6 || c.y > s.tableD + 1e-6))
                    return fail(uw, QStringLiteral("the base of %1 is off the %2 x %3\" table")
                                        .arg(u.id)
                                        .arg(s.tableW)
                                        .arg(s.tableD));
            u.wear = uo.value(QStringLiteral("wear")).toInt(0);
            if (u.wear < 0 || u.wear > p.stamina)
                return fail(uw + QStringLiteral(".wear"),
                            QStringLiteral("must be 0..%1 (Stamina)").arg(p.stamina));
            u.disordered = uo.value(QStringLiteral("disordered")).toBool();
            if (deploy && uo.contains(QStringLiteral("building")))
                return fail(uw + QStringLiteral(".building"),
                            QStringLiteral("units are placed by the deployment (\"deploy\": true)"));
            if (uo.contains(QStringLiteral("building"))) {
                const QString b = uo.value(QStringLiteral("building")).toString();
                for (qsizetype k = 0; k < s.terrain.size(); ++k)
                    if (s.terrain[k].id == b && s.terrain[k].type == QLatin1String("Building"))
                        u.building = int(k);
                if (u.building < 0)
                    return fail(uw + QStringLiteral(".building"),
                                QStringLiteral("no Building terrain '%1'").arg(b));
                if (s.terrain[u.building].occupant >= 0)
                    return fail(uw + QStringLiteral(".building"),
                                QStringLiteral("'%1' is already occupied (G55)").arg(b));
                if (p.type != TType::Foot || (!p.company && !s.terrain[u.building].large))
                    return fail(
                        uw + QStringLiteral(".building"),
                        QStringLiteral(
                            "a small building holds one Company, a large one any Foot unit (Tercios L1471)"));
                s.terrain[u.building].occupant = int(s.units.size());
            }
            reg.units << int(s.units.size());
            s.units << u;
        }
        s.regiments << reg;
    }
    for (qsizetype i = 0; i < s.units.size(); ++i)
        for (qsizetype j = i + 1; j < s.units.size(); ++j)
            if (!deploy && overlaps(s.units[i].pose.polygon(), s.units[j].pose.polygon()))
                return fail(
                    QStringLiteral("regiments"),
                    QStringLiteral("the bases of %1 and %2 overlap").arg(s.units[i].id, s.units[j].id));
    for (int side = 0; side < 2; ++side) {
        bool any = false;
        for (const TUnit& u : s.units)
            any = any || u.side == side;
        if (!any)
            return fail(QStringLiteral("regiments"), QStringLiteral("side %1 has no units").arg(side));
    }
    for (const QJsonValue& n : root.value(QStringLiteral("notes")).toArray())
        s.notes << n.toString();
    *out = s;
    return true;
}

bool loadTerciosScenario(const QString& path, const TerciosRules& rules, TerciosState* out, QString* error) {
    QJsonObject root;
    if (!readJsonObject(path, &root, error))
        return false;
    return terciosScenarioFromJson(root, path, rules, out, error);
}

// ---- action notation (docs/tercios.md) ------------------------------------------------------------------

namespace {
const char* dirName(int d) {
    return d == 1 ? "left" : d == -1 ? "right" : d == 2 ? "back" : "front";
}
} // namespace

QString actionText(const TerciosState& s, const TcAction& a) {
    auto id = [&](int u) { return u >= 0 && u < s.units.size() ? s.units[u].id : QStringLiteral("?"); };
    switch (a.kind) {
    case TcAction::Order:
        return a.target >= 0 ? QStringLiteral("order %1 with %2").arg(id(a.unit), id(a.target))
                             : QStringLiteral("order %1 %2").arg(id(a.unit), cardName(a.card));
    case TcAction::First:
        return QStringLiteral("first %1").arg(a.target == 0 ? QStringLiteral("A") : QStringLiteral("B"));
    case TcAction::Activate:
        return QStringLiteral("activate %1").arg(id(a.unit));
    case TcAction::Move:
        return QStringLiteral("move %1 %2,%3")
            .arg(id(a.unit), QString::number(a.to.x, 'f', 2), QString::number(a.to.y, 'f', 2));
    case TcAction::Face:
        return QStringLiteral("%1 %2 %3")
            .arg(a.mobility ? QStringLiteral("turn") : QStringLiteral("face"), id(a.unit),
                 QLatin1String(dirName(a.dir)));
    case TcAction::Fire:
        return a.dir ? QStringLiteral("fire %1 %2 %3")
                           .arg(id(a.unit), id(a.target), QLatin1String(dirName(a.dir)))
                     : QStringLiteral("fire %1 %2").arg(id(a.unit), id(a.target));
    case TcAction::Reorganize:
        return QStringLiteral("reorganize %1").arg(id(a.unit));
    case TcAction::Charge:
        return QStringLiteral("charge %1 %2").arg(id(a.unit), id(a.target));
    case TcAction::Approach:
        return QStringLiteral("approach %1 %2").arg(id(a.unit), id(a.target));
    case TcAction::Caracole:
        return QStringLiteral("caracole %1").arg(id(a.unit));
    case TcAction::Done:
        return QStringLiteral("done %1").arg(id(a.unit));
    case TcAction::React:
        return a.dir == 1   ? QStringLiteral("react %1 face").arg(id(a.unit))
               : a.dir == 2 ? QStringLiteral("react %1 evade").arg(id(a.unit))
                            : QStringLiteral("react %1").arg(id(a.unit));
    case TcAction::Decline:
        return QStringLiteral("decline %1").arg(id(a.unit));
    case TcAction::Side:
        return QStringLiteral("side %1").arg(a.target == 0 ? QStringLiteral("low") : QStringLiteral("high"));
    case TcAction::Deploy:
        return QStringLiteral("deploy %1 %2,%3")
            .arg(a.target >= 0 && a.target < s.regiments.size() ? s.regiments[a.target].id
                                                                : QStringLiteral("?"),
                 QString::number(a.to.x, 'f', 2), QString::number(a.to.y, 'f', 2));
    }
    return {};
}

bool parseAction(const TerciosState& s, const QString& text, TcAction* out, QString* error) {
    const QStringList w = text.simplified().split(QLatin1Char(' '), Qt::SkipEmptyParts);
    if (w.isEmpty()) {
        *error = QStringLiteral("empty action");
        return false;
    }
    TcAction a;
    auto unitAt = [&](int i, int* u) {
        if (i >= w.size()) {
            *error = QStringLiteral("'%1': a unit id is missing").arg(text);
            return false;
        }
        *u = s.indexOf(w[i]);
        if (*u < 0) {
            *error = QStringLiteral("'%1': no unit '%2'").arg(text, w[i]);
            return false;
        }
        return true;
    };
    auto dirAt = [&](int i, int* d) {
        const QString x = i < w.size() ? w[i].toLower() : QString();
        if (x == QLatin1String("left"))
            *d = 1;
        else if (x == QLatin1String("right"))
            *d = -1;
        else if (x == QLatin1String("back"))
            *d = 2;
        else if (x == QLatin1String("front"))
            *d = 0;
        else {
            *error = QStringLiteral("'%1': left, right, back or front expected").arg(text);
            return false;
        }
        return true;
    };
    const QString k = w[0].toLower();
    if (k == QLatin1String("order")) {
        a.kind = TcAction::Order;
        if (!unitAt(1, &a.unit))
            return false;
        if (w.size() == 4 && w[2].toLower() == QLatin1String("with")) {
            if (!unitAt(3, &a.target))
                return false;
        } else {
            const auto c = w.size() == 3 ? cardFromName(w[2]) : std::nullopt;
            if (!c) {
                *error =
                    QStringLiteral("'%1': order UNIT ready|assault|run|fire|resist, or order UNIT with UNIT")
                        .arg(text);
                return false;
            }
            a.card = *c;
        }
    } else if (k == QLatin1String("first")) {
        a.kind = TcAction::First;
        const QString x = w.value(1);
        if (x.compare(QLatin1String("A"), Qt::CaseInsensitive) == 0 ||
            x.compare(s.sideName[0], Qt::CaseInsensitive) == 0)
            a.target = 0;
        else if (x.compare(QLatin1String("B"), Qt::CaseInsensitive) == 0 ||
                 x.compare(s.sideName[1], Qt::CaseInsensitive) == 0)
            a.target = 1;
        else {
            *error = QStringLiteral("'%1': first A|B").arg(text);
            return false;
        }
    } else if (k == QLatin1String("activate") || k == QLatin1String("reorganize") ||
               k == QLatin1String("caracole") || k == QLatin1String("done") ||
               k == QLatin1String("decline")) {
        a.kind = k == QLatin1String("activate")     ? TcAction::Activate
                 : k == QLatin1String("reorganize") ? TcAction::Reorganize
                 : k == QLatin1String("caracole")   ? TcAction::Caracole
                 : k == QLatin1String("done")       ? TcAction::Done
                                                    : TcAction::Decline;
        if (!unitAt(1, &a.unit))
            return false;
    } else if (k == QLatin1String("react")) {
        a.kind = TcAction::React;
        if (!unitAt(1, &a.unit))
            return false;
        const QString how = w.value(2).toLower();
        a.dir = how == QLatin1String("face") ? 1 : how == QLatin1String("evade") ? 2 : 0;
        if (!how.isEmpty() && a.dir == 0) {
            *error = QStringLiteral("'%1': react UNIT [face|evade]").arg(text);
            return false;
        }
    } else if (k == QLatin1String("side")) {
        a.kind = TcAction::Side;
        const QString x = w.value(1).toLower();
        a.target = x == QLatin1String("low") ? 0 : x == QLatin1String("high") ? 1 : -1;
        if (a.target < 0) {
            *error = QStringLiteral("'%1': side low|high").arg(text);
            return false;
        }
    } else if (k == QLatin1String("move") || k == QLatin1String("deploy")) {
        if (k == QLatin1String("deploy")) {
            a.kind = TcAction::Deploy;
            for (qsizetype i = 0; i < s.regiments.size(); ++i)
                if (s.regiments[i].id == w.value(1))
                    a.target = int(i);
            if (a.target < 0) {
                *error = QStringLiteral("'%1': no regiment '%2'").arg(text, w.value(1));
                return false;
            }
        } else {
            a.kind = TcAction::Move;
            if (!unitAt(1, &a.unit))
                return false;
        }
        const QStringList xy = w.value(2).split(QLatin1Char(','));
        bool ok1 = false, ok2 = false;
        if (xy.size() == 2) {
            a.to.x = xy[0].toDouble(&ok1);
            a.to.y = xy[1].toDouble(&ok2);
        }
        if (!ok1 || !ok2) {
            *error = QStringLiteral("'%1': %2 X,Y (inches)")
                         .arg(text, a.kind == TcAction::Move ? QStringLiteral("move UNIT")
                                                             : QStringLiteral("deploy REGIMENT"));
            return false;
        }
    } else if (k == QLatin1String("face") || k == QLatin1String("turn")) {
        a.kind = TcAction::Face;
        a.mobility = k == QLatin1String("turn");
        if (!unitAt(1, &a.unit) || !dirAt(2, &a.dir))
            return false;
    } else if (k == QLatin1String("fire") || k == QLatin1String("charge") || k == QLatin1String("approach")) {
        a.kind = k == QLatin1String("fire")     ? TcAction::Fire
                 : k == QLatin1String("charge") ? TcAction::Charge
                                                : TcAction::Approach;
        if (!unitAt(1, &a.unit) || !unitAt(2, &a.target))
            return false;
        if (a.kind == TcAction::Fire && w.size() > 3 && !dirAt(3, &a.dir))
            return false;
    } else {
        *error = QStringLiteral("'%1': unknown action (docs/tercios.md)").arg(text);
        return false;
    }
    *out = a;
    return true;
}

} // namespace wp::tactical
