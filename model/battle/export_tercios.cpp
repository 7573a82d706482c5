// Battle export to Brevis Editio: Tercios (issue 9, Tercios half; docs/battle-export.md). Every choice is
// made from the mapping file's "tercios" section or the seed, so the same (battle, mapping, seed) always
// gives the same JSON, and the result always loads and passes the army-building check (Tercios L818-1037).
#include "battle/export.h"

#include "battle/site.h"
#include "data/words.h"
#include "rules/rng.h"
#include "tactical/battle.h"
#include "tactical/sidewords.h"
#include "tactical/tercios.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QMap>
#include <QSet>

#include <algorithm>
#include <cmath>

namespace wp::battle {

using wp::tactical::TerciosRules;
using wp::tactical::TRegimentDef;

namespace {

struct Chunk { // k campaign units behind one Tercios unit
    QString nat, kind;
    bool reduced = false;
    bool garrison = false;   // every unit of it was inside the relieved town (TYW 13.15)
    int first = 0, last = 0; // campaign unit numbers (1-based)
};

struct Regiment {
    QString def;
    QStringList units;
    QList<int> wear;
    QString label;
    bool garrison = false; // the relieved town's garrison: it starts in and beside the town (TYW 13.15)
};

QString natName(const QString& id) {
    return id.isEmpty() ? id : id.left(1).toUpper() + id.mid(1);
}

QString byNat(const QJsonObject& o, const QString& nat) {
    return o.contains(nat) ? o.value(nat).toString() : o.value(QStringLiteral("*")).toString();
}

double shareOf(const QJsonObject& o, const QString& nat) {
    return o.contains(nat) ? o.value(nat).toDouble() : o.value(QStringLiteral("*")).toDouble(0.3);
}

QString majorityNat(const Force& f) {
    QHash<QString, int> n;
    QString best;
    for (const ForceUnit& u : f.units)
        if (++n[u.nationality] > n.value(best) || best.isEmpty())
            best = u.nationality;
    if (best.isEmpty() && !f.leaders.isEmpty())
        best = f.leaders.first().nationality;
    return best;
}

// The regiment that holds a profile (its first slot's first choice), open to the faction.
const TRegimentDef* regimentFor(const TerciosRules& r, const QString& profile, const QString& faction) {
    for (const TRegimentDef& d : r.regiments)
        if (!d.units.isEmpty() && d.units.first().first() == profile &&
            (d.factions.isEmpty() || d.factions.contains(faction)))
            return &d;
    return nullptr;
}

// G46 fall-backs for a profile whose regiment is closed to the faction.
QString fitFaction(const TerciosRules& r, QString p, const QString& faction) {
    for (int guard = 0; guard < 6 && !regimentFor(r, p, faction); ++guard) {
        if (p == QLatin1String("TercioViejo"))
            p = QStringLiteral("Tercio");
        else if (p == QLatin1String("VeteranModernSquadron") || p == QLatin1String("ModernSquadron"))
            p = QStringLiteral("ReformedBattalion");
        else
            p = QStringLiteral("ClassicSquadron");
    }
    return p;
}

QString profileFor(const QJsonArray& table, const QString& nat, const QString& kind, const QString& arm,
                   int year) {
    for (const QJsonValue& v : table) {
        const QJsonObject e = v.toObject();
        const QString n = e.value(QStringLiteral("nationality")).toString(QStringLiteral("*"));
        if (n != QLatin1String("*") && n != nat)
            continue;
        if (e.value(QStringLiteral("arm")).toString() != arm)
            continue;
        if (year < e.value(QStringLiteral("from")).toInt(0) ||
            year > e.value(QStringLiteral("to")).toInt(9999))
            continue;
        return e.value(kind).toString();
    }
    return arm == QLatin1String("Horse") ? QStringLiteral("Cuirassiers") : QStringLiteral("ClassicSquadron");
}

struct SideBuild {
    QString faction;
    QList<Regiment> regiments;
    QStringList notes;
    int cost = 0;
};

int catCount(const TerciosRules& r, const QList<Regiment>& regs, const QString& cat) {
    int n = 0;
    for (const Regiment& g : regs)
        if (const TRegimentDef* d = r.regiment(g.def); d && d->cat == cat)
            n += cat == QLatin1String("Artillery") ? d->slotCount : 1;
    return n;
}

bool addRegiment(const TerciosRules& r, QList<Regiment>& regs, const TRegimentDef& d, const QString& label) {
    const QList<int> lim = r.catLimits.value(d.cat);
    const int used = catCount(r, regs, d.cat);
    if (lim.size() == 2 && used + (d.cat == QLatin1String("Artillery") ? d.slotCount : 1) > lim[1])
        return false;
    Regiment g;
    g.def = d.id;
    g.label = label;
    for (const QStringList& slot : d.units) {
        g.units << slot.first();
        g.wear << 0;
    }
    regs << g;
    return true;
}

// "1-3, 7" for the campaign unit numbers of some chunks.
QString unitRanges(const QList<Chunk>& chunks) {
    QList<int> n;
    for (const Chunk& c : chunks)
        for (int u = c.first; u <= c.last; ++u)
            n << u;
    std::sort(n.begin(), n.end());
    QStringList parts;
    for (qsizetype i = 0; i < n.size();) {
        qsizetype j = i;
        while (j + 1 < n.size() && n[j + 1] == n[j] + 1)
            ++j;
        parts << (j == i ? QString::number(n[i]) : QStringLiteral("%1-%2").arg(n[i]).arg(n[j]));
        i = j + 1;
    }
    return parts.join(QStringLiteral(", "));
}

// `garrison`: the force's last campaign units that were inside the relieved town (BattleInput::garrison);
// `separate`: they form regiments of their own, else they come first in their profile's regiments and a
// regiment made mostly of them is the garrison's.
SideBuild buildSide(const Force& f, int k, int year, const QJsonObject& m, const TerciosRules& r,
                    int pointsLimit, const QList<QJsonObject>& ownCards, int garrison = 0,
                    bool separate = true) {
    SideBuild b;
    const QString major = majorityNat(f);
    b.faction = byNat(m.value(QStringLiteral("factions")).toObject(), major);
    if (!r.factions.contains(b.faction))
        b.faction = r.factions.value(0);
    // Chunks of k consecutive campaign units (§11.5 step 4, option C).
    QList<Chunk> chunks;
    for (qsizetype i = 0; i < f.units.size(); i += k) {
        Chunk c;
        QHash<QString, int> nat, kind;
        c.reduced = true;
        c.first = int(i) + 1;
        for (qsizetype j = i; j < std::min<qsizetype>(i + k, f.units.size()); ++j) {
            ++nat[f.units[j].nationality];
            ++kind[f.units[j].kind];
            c.reduced = c.reduced && f.units[j].reduced;
            c.last = int(j) + 1;
            if (nat[f.units[j].nationality] > nat.value(c.nat) || c.nat.isEmpty())
                c.nat = f.units[j].nationality;
            if (kind[f.units[j].kind] > kind.value(c.kind) || c.kind.isEmpty())
                c.kind = f.units[j].kind;
        }
        c.garrison = garrison > 0 && c.first > f.units.size() - garrison;
        chunks << c;
    }
    const int n = int(chunks.size());
    const QJsonObject art = m.value(QStringLiteral("artillery")).toObject();
    int a = std::min(art.value(QStringLiteral("max")).toInt(2),
                     int(std::lround(double(n) / art.value(QStringLiteral("perUnits")).toDouble(8))));
    a = std::max(0, std::min(a, n - 1));
    int h = int(std::lround((n - a) * shareOf(m.value(QStringLiteral("horseShare")).toObject(), major)));
    h = std::max(0, std::min(h, n - a - 1));
    // Arms: the guns from the last chunks, the horse spread evenly over the rest (§11.5 step 2).
    QList<std::pair<QString, Chunk>> wants; // profile, source
    const int rest = n - a;
    const QJsonArray table = m.value(QStringLiteral("profiles")).toArray();
    QStringList arms;
    for (int i = 0; i < n; ++i)
        arms << (i >= rest ? QStringLiteral("Artillery")
                 : (long(i + 1) * h / std::max(1, rest) > long(i) * h / std::max(1, rest))
                     ? QStringLiteral("Horse")
                     : QStringLiteral("Foot"));
    // A relieved town's garrison is foot first (it held the walls): its chunks take the Foot arms from the
    // end of the list, the relief army the rest in order (the same numbers of each arm).
    if (std::any_of(chunks.begin(), chunks.end(), [](const Chunk& c) { return c.garrison; })) {
        QStringList pool = arms;
        QList<bool> used(n, false);
        for (int i = 0; i < n; ++i) {
            if (!chunks[i].garrison)
                continue;
            int pick = -1;
            for (int j = n - 1; j >= 0 && pick < 0; --j)
                if (!used[j] && pool[j] == QLatin1String("Foot"))
                    pick = j;
            for (int j = n - 1; j >= 0 && pick < 0; --j)
                if (!used[j])
                    pick = j;
            used[pick] = true;
            arms[i] = pool[pick];
        }
        for (int i = 0, j = 0; i < n; ++i) {
            if (chunks[i].garrison)
                continue;
            while (used[j])
                ++j;
            used[j] = true;
            arms[i] = pool[j];
        }
    }
    for (int i = 0; i < n; ++i) {
        const QString& arm = arms[i];
        QString p = arm == QLatin1String("Artillery")
                        ? art.value(chunks[i].kind).toString(QStringLiteral("LightGunsBattery"))
                        : profileFor(table, chunks[i].nat, chunks[i].kind, arm, year);
        if (!r.profiles.contains(p))
            p = arm == QLatin1String("Horse") ? QStringLiteral("Cuirassiers")
                                              : QStringLiteral("ClassicSquadron");
        wants << std::pair{fitFaction(r, p, b.faction), chunks[i]};
    }
    // Whole regiments (the catalogue's fixed sizes): per profile, round(count / size), at least one; a
    // relieved town's garrison forms its own regiments.
    QStringList order;
    QHash<QString, QList<Chunk>> by;
    for (const auto& [p, c] : wants) {
        const QString key = c.garrison && separate ? p + QStringLiteral("|garrison") : p;
        if (!by.contains(key))
            order << key;
        by[key] << c;
    }
    if (!separate)
        for (QList<Chunk>& l : by)
            std::stable_partition(l.begin(), l.end(), [](const Chunk& c) { return c.garrison; });
    std::stable_sort(order.begin(), order.end(),
                     [&](const QString& x, const QString& y) { return by[x].size() > by[y].size(); });
    for (const QString& key : order) {
        const QString p = key.section(QLatin1Char('|'), 0, 0);
        const TRegimentDef* d = regimentFor(r, p, b.faction);
        if (!d)
            continue;
        int size = 0;
        for (const QStringList& slot : d->units)
            size +=
                slot.first() == p || (slot.contains(p) && slot.first() != QLatin1String("MusketeersCompany"))
                    ? 1
                    : 0;
        size = std::max(1, size);
        const QList<Chunk>& src = by[key];
        const int count = std::max(1, int(std::lround(double(src.size()) / size)));
        for (int g = 0; g < count; ++g) {
            const int from = std::min<int>(int(src.size()) - 1, g * size);
            const int to = std::min<int>(int(src.size()) - 1, (g + 1) * size - 1);
            const QString label =
                QStringLiteral("%1 %2 (campaign units %3)")
                    .arg(natName(src[from].nat), src[from].kind, unitRanges(src.mid(from, to - from + 1)));
            if (!addRegiment(r, b.regiments, *d, label))
                break;
            // A reduced campaign unit starts with 1 Wear (§11.5 step 6), never at its Stamina.
            Regiment& reg = b.regiments.last();
            int inside = 0;
            for (int c = from; c <= to; ++c)
                inside += src[c].garrison ? 2 : 0;
            reg.garrison = inside >= to - from + 1; // at least half of its campaign units were inside
            for (int u = 0; u < reg.units.size(); ++u) {
                const int ci = g * size + u;
                if (ci < src.size() && src[ci].reduced && r.profiles[reg.units[u]].stamina > 1)
                    reg.wear[u] = 1;
            }
        }
    }
    // Cards that upgrade a profile (Spanish Tercios, Cavalry Charge): each regiment of it becomes the
    // regiment of the better profile (the same category; its wear kept unit by unit), so a card never
    // costs a regiment to the catalogue's sizes.
    for (const QJsonObject& c : ownCards) {
        if (c.value(QStringLiteral("effect")).toString() != QLatin1String("upgrade"))
            continue;
        const QString from = c.value(QStringLiteral("from")).toString(),
                      to = c.value(QStringLiteral("to")).toString();
        const TRegimentDef* d = regimentFor(r, to, b.faction);
        int changed = 0;
        for (Regiment& g : b.regiments) {
            const TRegimentDef* old = r.regiment(g.def);
            if (!d || !old || old->cat != d->cat || !g.units.contains(from))
                continue;
            Regiment up;
            up.def = d->id;
            up.label = g.label + QStringLiteral(" (%1)").arg(c.value(QStringLiteral("title")).toString());
            up.garrison = g.garrison;
            for (const QStringList& slot : d->units) {
                up.units << slot.first();
                up.wear << std::min(g.wear.value(up.units.size() - 1), r.profiles[slot.first()].stamina - 1);
            }
            g = up;
            ++changed;
        }
        if (!changed)
            b.notes << c.value(QStringLiteral("title")).toString() +
                           QStringLiteral(": no %1 regiment to improve, no effect.")
                               .arg(r.profiles.value(from).name);
    }
    if (catCount(r, b.regiments, QStringLiteral("Foot")) == 0) { // Tercios L841: at least one Foot Regiment
        addRegiment(r, b.regiments, *r.regiment(QStringLiteral("Raw")),
                    QStringLiteral("levies (a Foot Regiment is required, Tercios L841)"));
        b.notes << QStringLiteral(
            "A Raw Regiment was added: every army needs a Foot Regiment (Tercios L841).");
    }
    for (const QJsonObject& c : ownCards)
        if (c.value(QStringLiteral("effect")).toString() == QLatin1String("addRegiment")) {
            const TRegimentDef* d = r.regiment(c.value(QStringLiteral("regiment")).toString());
            if (d && (d->factions.isEmpty() || d->factions.contains(b.faction)) &&
                addRegiment(r, b.regiments, *d, c.value(QStringLiteral("title")).toString()))
                continue;
            b.notes << c.value(QStringLiteral("title")).toString() +
                           QStringLiteral(": no room in the army limits, no effect.");
        }
    wp::tactical::ArmyList list;
    list.faction = b.faction;
    list.pointsLimit = pointsLimit;
    for (const Regiment& g : b.regiments) {
        wp::tactical::ArmyRegiment ar;
        ar.def = g.def;
        ar.units = g.units;
        list.regiments << ar;
    }
    b.cost = wp::tactical::armyCost(r, list);
    return b;
}

QJsonArray pt(double x, double y) {
    return QJsonArray{std::round(x * 100) / 100, std::round(y * 100) / 100};
}

} // namespace

bool loadTerciosMapping(const QString& path, TerciosMapping* out, QString* error) {
    QJsonObject doc;
    if (!wp::tactical::readJsonObject(path, &doc, error))
        return false;
    auto fail = [&](const QString& where, const QString& what) {
        *error = QStringLiteral("%1: tercios.%2: %3").arg(path, where, what);
        return false;
    };
    const QJsonObject t = doc.value(QStringLiteral("tercios")).toObject();
    if (t.isEmpty())
        return fail(QStringLiteral(""), QStringLiteral("the 'tercios' section is missing"));
    const TerciosRules* rules = wp::tactical::defaultTerciosRules(error);
    if (!rules)
        return false;
    const QJsonArray profiles = t.value(QStringLiteral("profiles")).toArray();
    if (profiles.isEmpty())
        return fail(QStringLiteral("profiles"), QStringLiteral("missing or empty"));
    for (qsizetype i = 0; i < profiles.size(); ++i) {
        const QJsonObject e = profiles[i].toObject();
        const QString arm = e.value(QStringLiteral("arm")).toString();
        if (arm != QLatin1String("Foot") && arm != QLatin1String("Horse"))
            return fail(QStringLiteral("profiles[%1].arm").arg(i),
                        QStringLiteral("'%1' is not Foot or Horse").arg(arm));
        for (const char* k : {"veteran", "mercenary", "militia"})
            if (!rules->profiles.contains(e.value(QLatin1String(k)).toString()))
                return fail(QStringLiteral("profiles[%1].%2").arg(i).arg(QLatin1String(k)),
                            QStringLiteral("unknown profile '%1'").arg(e.value(QLatin1String(k)).toString()));
    }
    const QJsonObject art = t.value(QStringLiteral("artillery")).toObject();
    for (const char* k : {"veteran", "mercenary", "militia"})
        if (!rules->profiles.contains(art.value(QLatin1String(k)).toString()))
            return fail(QStringLiteral("artillery.%1").arg(QLatin1String(k)),
                        QStringLiteral("unknown profile"));
    const QJsonObject factions = t.value(QStringLiteral("factions")).toObject();
    for (auto it = factions.begin(); it != factions.end(); ++it)
        if (it.key() != QLatin1String("source") && !rules->factions.contains(it.value().toString()))
            return fail(QStringLiteral("factions.") + it.key(),
                        QStringLiteral("unknown faction '%1'").arg(it.value().toString()));
    const QJsonObject areas = t.value(QStringLiteral("areas")).toObject();
    for (auto it = areas.begin(); it != areas.end(); ++it) {
        if (it.key() == QLatin1String("source"))
            continue;
        for (const QJsonValue& v : it.value().toArray())
            if (!rules->terrain.contains(v.toString()))
                return fail(QStringLiteral("areas.") + it.key(),
                            QStringLiteral("unknown terrain type '%1'").arg(v.toString()));
    }
    const QJsonObject cards = t.value(QStringLiteral("cards")).toObject();
    for (auto it = cards.begin(); it != cards.end(); ++it) {
        const QJsonObject c = it.value().toObject();
        const QString e = c.value(QStringLiteral("effect")).toString();
        if (!QStringList{QStringLiteral("note"), QStringLiteral("wear"), QStringLiteral("fortify"),
                         QStringLiteral("addRegiment"), QStringLiteral("upgrade"), QStringLiteral("rank")}
                 .contains(e))
            return fail(QStringLiteral("cards.%1.effect").arg(it.key()),
                        QStringLiteral("unknown effect '%1'").arg(e));
        if (e == QLatin1String("addRegiment") &&
            !rules->regiment(c.value(QStringLiteral("regiment")).toString()))
            return fail(QStringLiteral("cards.%1.regiment").arg(it.key()),
                        QStringLiteral("unknown regiment"));
        if (e == QLatin1String("upgrade") &&
            (!rules->profiles.contains(c.value(QStringLiteral("from")).toString()) ||
             !rules->profiles.contains(c.value(QStringLiteral("to")).toString())))
            return fail(QStringLiteral("cards.%1").arg(it.key()),
                        QStringLiteral("unknown profile in from/to"));
    }
    if (!loadSites(sitesPathFor(path), &out->sites, error))
        return false;
    out->root = t;
    return true;
}

QJsonObject exportTercios(const BattleInput& in, const TerciosMapping& map, const TerciosRules& rules,
                          quint64 seed) {
    const QJsonObject& m = map.root;
    wp::rules::Rng rng(seed ^ 0x7e5c105ULL);
    const int agreedLimit = m.value(QStringLiteral("pointsLimit"))
                                .toObject()
                                .value(QStringLiteral("value"))
                                .toInt(rules.pointsMax);
    const QJsonObject cardTable = m.value(QStringLiteral("cards")).toObject();
    // The cards each side played, resolved to the side they act on.
    QList<QJsonObject> own[2];
    QStringList cardNotes;
    for (int side = 0; side < 2; ++side)
        for (const QString& title : in.sides[side].cards) {
            if (!cardTable.contains(title)) {
                cardNotes << QStringLiteral("%1 (%2): no Tercios effect in the mapping.")
                                 .arg(title, in.sides[side].name);
                continue;
            }
            QJsonObject c = cardTable.value(title).toObject();
            c.insert(QStringLiteral("title"), title);
            // A card the enemy's card cancels ("cancelledBy": Furia Franchese cancels Field Fortifications).
            if (const QString by = c.value(QStringLiteral("cancelledBy")).toString();
                !by.isEmpty() && in.sides[1 - side].cards.contains(by)) {
                cardNotes << QStringLiteral("%1 (played by %2): cancelled by %3, played by %4 (no effect).")
                                 .arg(title, in.sides[side].name, by, in.sides[1 - side].name);
                continue;
            }
            const int target =
                c.value(QStringLiteral("who")).toString() == QLatin1String("enemy") ? 1 - side : side;
            own[target] << c;
            cardNotes << QStringLiteral("%1 (played by %2): %3")
                             .arg(title, in.sides[side].name, c.value(QStringLiteral("note")).toString());
        }
    // Scale: the smallest k (campaign units per Tercios unit) with both armies within the points.
    // A relieved town's garrison has regiments of its own; when that would need a coarser scale (its
    // regiments round up), it joins the relief army's instead, so the scale, and the besiegers, are the same
    // as without it.
    SideBuild b[2];
    int k = 1;
    // The scale comes from the forces alone (no card), so that a card never makes both armies smaller.
    auto scale = [&](int garrison, bool separate) {
        for (k = 1; k <= 64; ++k) {
            for (int side = 0; side < 2; ++side)
                b[side] = buildSide(in.sides[side], k, in.year, m, rules, agreedLimit, {},
                                    side == 0 ? garrison : 0, separate);
            if (b[0].cost <= agreedLimit && b[1].cost <= agreedLimit)
                break;
        }
        return k;
    };
    // Its own regiments when the scale allows, else first in its profiles' regiments (the same regiments
    // as without it), else (the arms moved, the cost changed) with the relief army.
    const int plainScale = scale(0, true);
    const int gar = in.relief ? in.garrison : 0;
    int garrisonUnits0 = 0;
    bool separate = true;
    if (gar > 0 && scale(gar, true) == plainScale)
        garrisonUnits0 = gar;
    else if (gar > 0 && scale(gar, false) == plainScale) {
        garrisonUnits0 = gar;
        separate = false;
    }
    const bool ownGarrison = garrisonUnits0 > 0;
    k = plainScale;
    for (int side = 0; side < 2; ++side) // then the cards
        b[side] = buildSide(in.sides[side], k, in.year, m, rules, agreedLimit, own[side],
                            side == 0 ? garrisonUnits0 : 0, separate);
    // A card that adds or improves regiments may bring an army above the agreed points: the limit is then
    // the dearer army's (Tercios L820: the players agree it; the points are for information).
    const int pointsLimit = std::max({agreedLimit, b[0].cost, b[1].cost});
    // The situation: besiegers (the defender of a sally or a relief) hold their siege lines, a Wall in
    // front of their first-line foot, as the Field Fortifications card gives (docs/battle-export.md).
    if (in.sally || in.relief)
        own[1] << QJsonObject{{QStringLiteral("effect"), QStringLiteral("fortify")},
                              {QStringLiteral("title"), QStringLiteral("siege lines")}};
    // Cards that wear the enemy's units (§11.5 step 6): the first units of the first regiments.
    for (int side = 0; side < 2; ++side)
        for (const QJsonObject& c : own[side]) {
            if (c.value(QStringLiteral("effect")).toString() != QLatin1String("wear"))
                continue;
            int left = c.value(QStringLiteral("count")).toInt(1);
            for (Regiment& g : b[side].regiments)
                for (int u = 0; u < g.units.size() && left > 0; ++u)
                    if (g.wear[u] == 0 && rules.profiles[g.units[u]].stamina > 1) {
                        g.wear[u] = 1;
                        --left;
                    }
        }

    // Orientation (G48: 1-3 the long edges, 4-6 the short edges) and zones (Tercios L1503).
    const int orient = rng.below(6) + 1;
    const bool longEdges = orient <= 3;
    const double W = longEdges ? rules.tableW : rules.tableD; // across
    const double D = longEdges ? rules.tableD : rules.tableW; // depth, side 0 at 0
    const double zone = D / 2 - 12;
    auto toTable = [&](double across, double depth) {
        return longEdges ? pt(across, depth) : pt(depth, across);
    };
    // The site: river, roads, month (site.h), from a random stream of its own.
    wp::rules::Rng siteRng(seed ^ 0x517e5ULL);
    SiteShape shape;
    shape.W = W;
    shape.D = D;
    shape.riverWidth = 3; // a River 3" wide, a small one 1.5" (Tercios L1485; "be flexible", L1467)
    shape.streamWidth = 1.5;
    shape.streamAcross = false; // both along a flank: a flow roll of 5-6 makes it impassable
    shape.neutralLo = zone;
    shape.neutralHi = D - zone;
    shape.flankMin = 3;
    shape.flankMax = 6;
    shape.townW = 6;
    shape.townD = 4;
    shape.crossingAlong = 4; // a Bridge or Ford piece 4" along the water (below)
    // A sally comes out of the town; a relief finds the besieged town behind the besiegers (TYW 13.15).
    shape.townDepth = in.sally ? zone + 4 : in.relief ? D - 3 : D - zone - 4;
    const SitePlan site = planSite(in, map.sites, shape, siteRng);
    const double lo = site.freeLo, hi = site.freeHi; // the deployment band, clear of a flank river

    // Deployment: per side, first line the foot in the centre with the horse on both flanks, second line
    // the guns and the battle group; a regiment is never split (6" cohesion, Tercios L1505). With the
    // mapping's "deploy": true the players deploy instead (Tercios L1501-1505, G50): the units go without
    // positions and the scenario says "deploy": true; the orientation rolled here stays (the terrain is laid
    // out for it).
    const bool playersDeploy = m.value(QStringLiteral("deploy")).toBool(false);
    // The lines of a side: the first the horse on both flanks of the foot, the second the guns and the
    // battle group, and what does not fit in the first (flanks first). `skip`: regiments placed elsewhere.
    struct Block {
        int reg;
        double width;
    };
    auto width = [](const QList<Block>& l) {
        double sum = 0;
        for (const Block& x : l)
            sum += x.width;
        return sum;
    };
    auto linesOf = [&](int side, const QSet<int>& skip) {
        QList<Block> left, centre, right, back;
        int horse = 0;
        for (qsizetype gi = 0; gi < b[side].regiments.size(); ++gi) {
            const Regiment& g = b[side].regiments[gi];
            if (skip.contains(int(gi)))
                continue;
            const TRegimentDef* d = rules.regiment(g.def);
            double w = 0;
            for (const QString& p : g.units)
                w += rules.profiles[p].baseW + 1.5;
            const Block blk{int(gi), w};
            if (d->cat == QLatin1String("Foot"))
                centre << blk;
            else if (d->cat == QLatin1String("Horse"))
                (horse++ % 2 == 0 ? left : right) << blk;
            else
                back << blk;
        }
        QList<Block> row1;
        row1 << left << centre << right;
        while (width(row1) > hi - lo - 2 && row1.size() > 1) { // overflow to the second line, flanks first
            back.prepend(row1.takeFirst());
            if (width(row1) > hi - lo - 2 && row1.size() > 1)
                back << row1.takeLast();
        }
        return QList<QList<Block>>{row1, back};
    };
    // Where a line's regiments start when it keeps clear of the across span [a0, a1] (from the left edge
    // of the band, each regiment past the span when it would reach it); empty when it does not fit.
    auto around = [&](const QList<Block>& line, double a0, double a1) {
        QList<double> out;
        double x = lo + 1;
        for (const Block& blk : line) {
            if (x < a1 && x + blk.width > a0)
                x = a1;
            if (x + blk.width > hi - 1 + 1e-9)
                return QList<double>();
            out << x;
            x += blk.width;
        }
        return out;
    };
    // The besiegers' second line stands this far from their edge; it must keep clear of the relieved town
    // and its garrison when their depths meet (a 12" deployment zone; not a 24" one).
    double backDepth = 0, backReach = 0;
    for (const Regiment& g : b[1].regiments)
        for (const QString& p : g.units)
            backReach = std::max(backReach, rules.profiles[p].baseD / 2);
    backDepth = std::max(backReach + 0.5, zone - 8);
    const QList<Block> besiegersBack = linesOf(1, {})[1];

    // Relief (TYW 13.15): the garrison's regiments start in and beside the town behind the besiegers,
    // facing their rear: one Foot unit inside the town (a large Building holds any one Foot unit, L1471;
    // G55: at the building's centre), the others beside it, a regiment on one side so that it keeps
    // together (L1505). A regiment that finds no room (on the table, clear of the besiegers' second line)
    // marches with the relief army.
    const QString townId = in.city.isEmpty() ? QStringLiteral("town") : in.city;
    struct Spot {
        double across, depth;
        bool inTown;
    };
    QMap<int, QList<Spot>> garrisonAt; // the attacker's regiment -> its units' places
    double avoid0 = 0, avoid1 = 0;     // the across span the besiegers' second line keeps clear
    bool avoid = false;
    int garrisonUnits = 0, marched = 0;
    if (in.relief) {
        const double tA0 = site.town.x() - shape.townW / 2, tA1 = site.town.x() + shape.townW / 2;
        double rightEdge = tA1 + 0.75, leftEdge = tA0 - 0.75; // the next free place on each side
        double garrisonReach = shape.townD / 2;
        for (const Regiment& g : b[0].regiments)
            if (g.garrison)
                for (const QString& p : g.units)
                    garrisonReach = std::max(garrisonReach, rules.profiles[p].baseD / 2);
        // The depths (from the besiegers' edge) of the town and garrison and of the second line meet?
        avoid = D - site.town.y() + garrisonReach + 0.5 > backDepth - backReach && !besiegersBack.isEmpty();
        auto clearOf = [&](double l, double r) { // the second line still fits around [l, r]
            return !avoid || !around(besiegersBack, lo + hi - r, lo + hi - l).isEmpty();
        };
        bool townTaken = in.neutralArea; // a shut town (5.13) takes no one in
        for (qsizetype gi = 0; gi < b[0].regiments.size() && !playersDeploy; ++gi) {
            const Regiment& g = b[0].regiments[gi];
            if (!g.garrison)
                continue;
            int inside = -1;
            for (qsizetype u = 0; u < g.units.size() && !townTaken && inside < 0; ++u)
                if (rules.profiles[g.units[u]].type == wp::tactical::TType::Foot)
                    inside = int(u);
            double need = 0;
            for (qsizetype u = 0; u < g.units.size(); ++u)
                if (u != inside)
                    need += rules.profiles[g.units[u]].baseW + 1.5;
            const bool fitsRight =
                           rightEdge + need <= hi - 0.5 && clearOf(leftEdge - 0.75, rightEdge + need + 0.75),
                       fitsLeft =
                           leftEdge - need >= lo + 0.5 && clearOf(leftEdge - need - 0.75, rightEdge + 0.75);
            if (!fitsRight && !fitsLeft) {
                ++marched;
                continue;
            }
            const bool right = fitsRight && (!fitsLeft || rightEdge - tA1 <= tA0 - leftEdge);
            QList<Spot> at;
            for (qsizetype u = 0; u < g.units.size(); ++u) {
                const double w = rules.profiles[g.units[u]].baseW + 1.5;
                if (u == inside)
                    at << Spot{site.town.x(), site.town.y(), true};
                else if (right) {
                    at << Spot{rightEdge + w / 2, site.town.y(), false};
                    rightEdge += w;
                } else {
                    at << Spot{leftEdge - w / 2, site.town.y(), false};
                    leftEdge -= w;
                }
            }
            townTaken = townTaken || inside >= 0;
            garrisonUnits += int(g.units.size());
            garrisonAt.insert(int(gi), at);
        }
        avoid0 = leftEdge - 0.75;
        avoid1 = rightEdge + 0.75;
    }
    QJsonArray regiments;
    double footSpan[2][2] = {{W, 0}, {W, 0}};
    auto unitJson = [&](int side, int reg, const Regiment& g, qsizetype u) {
        QJsonObject uo;
        uo.insert(QStringLiteral("id"), QStringLiteral("%1%2%3")
                                            .arg(side ? QLatin1Char('B') : QLatin1Char('A'))
                                            .arg(reg + 1)
                                            .arg(QChar(char16_t(u'a' + u))));
        uo.insert(QStringLiteral("profile"), g.units[u]);
        if (g.wear[u])
            uo.insert(QStringLiteral("wear"), g.wear[u]);
        return uo;
    };
    auto regimentJson = [&](int side, int reg, const Regiment& g) {
        const TRegimentDef* d = rules.regiment(g.def);
        QJsonObject ro;
        ro.insert(QStringLiteral("id"),
                  QStringLiteral("%1%2").arg(side ? QLatin1Char('B') : QLatin1Char('A')).arg(reg + 1));
        ro.insert(QStringLiteral("side"), side);
        ro.insert(QStringLiteral("def"), g.def);
        ro.insert(QStringLiteral("name"),
                  QStringLiteral("%1: %2%3")
                      .arg(d->name, g.label,
                           g.garrison && in.relief ? QStringLiteral(", the garrison of %1").arg(townId)
                                                   : QString()));
        return ro;
    };
    // The garrison's regiments, placed above.
    QSet<int> inTown;
    for (auto it = garrisonAt.cbegin(); it != garrisonAt.cend(); ++it) {
        inTown << it.key();
        const Regiment& g = b[0].regiments[it.key()];
        QJsonObject ro = regimentJson(0, it.key(), g);
        QJsonArray units;
        for (qsizetype u = 0; u < g.units.size(); ++u) {
            QJsonObject uo = unitJson(0, it.key(), g, u);
            const Spot& sp = it.value()[u];
            const QJsonArray xy = toTable(sp.across, sp.depth);
            uo.insert(QStringLiteral("x"), xy[0]);
            uo.insert(QStringLiteral("y"), xy[1]);
            uo.insert(QStringLiteral("facing"), longEdges ? 270 : 180); // toward the besiegers' rear
            if (sp.inTown)
                uo.insert(QStringLiteral("building"), townId);
            units << uo;
        }
        ro.insert(QStringLiteral("units"), units);
        regiments << ro;
    }
    for (int side = 0; side < 2; ++side) {
        const QList<QList<Block>> rows = linesOf(side, side == 0 ? inTown : QSet<int>());
        for (int ri = 0; ri < rows.size(); ++ri) {
            const double total = width(rows[ri]);
            const double squeeze = total > hi - lo - 2 ? (hi - lo - 2) / total : 1.0;
            QList<double> at;
            // The besiegers' second line keeps clear of the relieved town and its garrison behind them (in
            // this side's mirrored frame), when their depths meet.
            if (avoid && side == 1 && ri == 1)
                at = around(rows[ri], lo + hi - avoid1, lo + hi - avoid0);
            if (at.isEmpty()) {
                double x = lo + (hi - lo - total * squeeze) / 2;
                for (const Block& blk : rows[ri]) {
                    at << x;
                    x += blk.width * squeeze;
                }
            }
            for (qsizetype bi = 0; bi < rows[ri].size(); ++bi) {
                const Block& blk = rows[ri][bi];
                double x = at[bi];
                const Regiment& g = b[side].regiments[blk.reg];
                const TRegimentDef* d = rules.regiment(g.def);
                QJsonObject ro = regimentJson(side, blk.reg, g);
                QJsonArray units;
                for (qsizetype u = 0; u < g.units.size(); ++u) {
                    const wp::tactical::TProfile& p = rules.profiles[g.units[u]];
                    const double step = (p.baseW + 1.5) * squeeze;
                    const double across0 = x + step / 2;
                    const double depth0 =
                        ri == 0 ? zone - 1 - p.baseD / 2 : std::max(p.baseD / 2 + 0.5, zone - 8);
                    const double across = side == 0 ? across0 : lo + hi - across0;
                    const double depth = side == 0 ? depth0 : D - depth0;
                    if (ri == 0 && d->cat == QLatin1String("Foot")) {
                        footSpan[side][0] = std::min(footSpan[side][0], across - p.baseW / 2);
                        footSpan[side][1] = std::max(footSpan[side][1], across + p.baseW / 2);
                    }
                    QJsonObject uo = unitJson(side, blk.reg, g, u);
                    if (!playersDeploy) { // else the players place them (Tercios L1501-1505, G50)
                        const QJsonArray xy = toTable(across, depth);
                        uo.insert(QStringLiteral("x"), xy[0]);
                        uo.insert(QStringLiteral("y"), xy[1]);
                        uo.insert(QStringLiteral("facing"),
                                  longEdges ? (side == 0 ? 90 : 270) : (side == 0 ? 0 : 180));
                    }
                    units << uo;
                    x += step;
                }
                ro.insert(QStringLiteral("units"), units);
                regiments << ro;
            }
        }
    }

    // Terrain (G49): in the no-man's-land band only, so deployment is never blocked.
    QJsonArray terrain;
    struct Box {
        double a0, a1, d0, d1;
    };
    QList<Box> boxes;
    auto boxPolygon = [&](const Box& bx) {
        return QJsonArray{toTable(bx.a0, bx.d0), toTable(bx.a1, bx.d0), toTable(bx.a1, bx.d1),
                          toTable(bx.a0, bx.d1)};
    };
    auto addBox = [&](const QString& type, const Box& bx, const QString& id, bool large = false) {
        QJsonObject t;
        t.insert(QStringLiteral("id"), id);
        t.insert(QStringLiteral("type"), type);
        if (large)
            t.insert(QStringLiteral("large"), true);
        t.insert(QStringLiteral("polygon"), boxPolygon(bx));
        terrain << t;
        boxes << bx;
    };
    auto clear = [&](const Box& bx) {
        for (const Box& o : boxes)
            if (bx.a0 < o.a1 + 3 && o.a0 < bx.a1 + 3 && bx.d0 < o.d1 + 3 && o.d0 < bx.d1 + 3)
                return false; // keep the 3" gaps (Tercios L455)
        return true;
    };
    auto uni = [&](double a, double b2) { return a + (b2 - a) * rng.below(1001) / 1000.0; };
    // The river's band across the table (along a flank, edge to edge), when there is one.
    double rLo = W, rHi = 0;
    for (const QPointF& q : site.riverLine) {
        rLo = std::min(rLo, q.x() - site.riverWidth / 2);
        rHi = std::max(rHi, q.x() + site.riverWidth / 2);
    }
    // The city: a large building on the defender's side of the no-man's-land, walled if a fortress.
    {
        const double a0 = site.town.x() - 3;
        const Box town{a0, a0 + 6, site.town.y() - 2, site.town.y() + 2};
        if (clear(town)) {
            addBox(QStringLiteral("Building"), town, in.city.isEmpty() ? QStringLiteral("town") : in.city,
                   true);
            // A Neutral Area's town keeps its gates shut (TYW 5.13): an impassable piece over it (Rocks,
            // L1487: Hidden and Impassable), so the module keeps every unit out, as the TVBD export does.
            if (in.neutralArea)
                terrain << QJsonObject{{QStringLiteral("id"), QStringLiteral("closed-town")},
                                       {QStringLiteral("type"), QStringLiteral("Rocks")},
                                       {QStringLiteral("polygon"), boxPolygon(town)}};
            if (in.fortress && !in.relief) { // a relieved town's walls face the besiegers' rear: not drawn
                // The walls face the enemy: the attacker, or the besiegers when the garrison sallies.
                Box wall = in.sally ? Box{town.a0 - 4, town.a1 + 4, town.d1 + 1.0, town.d1 + 1.5}
                                    : Box{town.a0 - 4, town.a1 + 4, town.d0 - 1.5, town.d0 - 1.0};
                // The wall ends at the bank of a river beside the town, never in it.
                if (rHi > rLo) {
                    if (rHi <= town.a0)
                        wall.a0 = std::max(wall.a0, rHi);
                    else if (rLo >= town.a1)
                        wall.a1 = std::min(wall.a1, rLo);
                }
                bool ok = true;
                for (qsizetype i = 0; i + 1 < boxes.size(); ++i)
                    if (wall.a0 < boxes[i].a1 && boxes[i].a0 < wall.a1 && wall.d0 < boxes[i].d1 &&
                        boxes[i].d0 < wall.d1)
                        ok = false;
                if (ok) {
                    terrain << QJsonObject{{QStringLiteral("id"), QStringLiteral("city-wall")},
                                           {QStringLiteral("type"), QStringLiteral("Wall")},
                                           {QStringLiteral("polygon"), boxPolygon(wall)}};
                    boxes << wall;
                }
            }
        }
    }
    // Field Fortifications: a wall in front of the player's first-line foot.
    for (int side = 0; side < 2; ++side)
        for (const QJsonObject& c : own[side])
            if (c.value(QStringLiteral("effect")).toString() == QLatin1String("fortify") &&
                footSpan[side][1] > footSpan[side][0]) {
                const double d0 = side == 0 ? zone + 0.4 : D - zone - 0.9;
                const double a0 = side == 0 ? footSpan[side][0] : footSpan[side][0];
                addBox(QStringLiteral("Wall"), Box{a0, footSpan[side][1], d0, d0 + 0.5},
                       QStringLiteral("fortifications%1").arg(side + 1));
                break; // one Wall a side (the card and siege lines are the same works)
            }
    QStringList siteNotes;
    // The river along a flank, its crossings, and the roads (no Tercios road: drawn for the look only).
    QJsonArray decor;
    auto line = [&](const QList<QPointF>& l) {
        QJsonArray a;
        for (const QPointF& q : l)
            a << toTable(q.x(), q.y());
        return a;
    };
    for (const SiteRoad& r : site.roads)
        decor << QJsonObject{{QStringLiteral("type"), QStringLiteral("road")},
                             {QStringLiteral("name"), r.to.isEmpty()
                                                          ? QStringLiteral("road")
                                                          : QStringLiteral("road to %1").arg(r.to)},
                             {QStringLiteral("line"), line(r.line)}};
    if (!site.riverKind.isEmpty()) {
        const int flow = 1 + siteRng.below(6); // L1485: 1 Difficult, 2-4 Very Difficult, 5-6 Impassable
        terrain << QJsonObject{{QStringLiteral("id"), QStringLiteral("river")},
                               {QStringLiteral("type"), QStringLiteral("River")},
                               {QStringLiteral("line"), line(site.riverLine)},
                               {QStringLiteral("width"), site.riverWidth},
                               {QStringLiteral("roll"), flow}};
        const qsizetype onLand = boxes.size(); // the town, its wall, field fortifications
        boxes << Box{rLo, rHi, 0, D};
        int crossingNo = 0;
        for (const SiteCrossing& c : site.crossings) {
            Box bx{c.at.x() - site.riverWidth / 2 - 1, c.at.x() + site.riverWidth / 2 + 1, c.at.y() - 2,
                   c.at.y() + 2};
            // A crossing lands 1" beyond each bank, or at the town (or wall) standing on the bank: the
            // pieces meet, they do not overlap (the town is 0.5" from the bank, site.cpp).
            for (qsizetype i = 0; i < onLand; ++i) {
                const Box& o = boxes[i];
                if (bx.a0 < o.a1 && o.a0 < bx.a1 && bx.d0 < o.d1 && o.d0 < bx.d1) {
                    if (o.a0 >= (rLo + rHi) / 2)
                        bx.a1 = std::min(bx.a1, o.a0);
                    else
                        bx.a0 = std::max(bx.a0, o.a1);
                }
            }
            addBox(c.bridge ? QStringLiteral("Bridge") : QStringLiteral("Ford"), bx,
                   QStringLiteral("%1%2").arg(c.bridge ? "bridge" : "ford").arg(++crossingNo));
        }
        siteNotes << QStringLiteral("The %2 at %1 (%3): a River along the %4 flank, flow roll %5: %6 "
                                    "(L1485); %7, Bridges and Fords pass any unit (L1469).")
                         .arg(in.city, site.river, site.riverSource,
                              (site.riverLine.first().x() < W / 2) ? QStringLiteral("left")
                                                                   : QStringLiteral("right"))
                         .arg(flow)
                         .arg(flow == 1   ? QStringLiteral("Difficult")
                              : flow <= 4 ? QStringLiteral("Very Difficult")
                                          : QStringLiteral("Impassable"))
                         .arg(counted(site.crossings.size(), "crossing"));
    }
    siteNotes << site.notes;
    const QJsonObject areas = m.value(QStringLiteral("areas")).toObject();
    const QJsonArray types = areas.value(in.area).isArray()
                                 ? areas.value(in.area).toArray()
                                 : areas.value(QStringLiteral("default")).toArray();
    // L1475: one roll for all Cropland, made here from the site's stream; out of season (September to
    // April: harvested or bare fields) the crops give the lowest result, Difficult only.
    const int cropRoll = 1 + siteRng.below(6);
    const int crops = site.cropsStanding ? cropRoll : 1;
    const int pieces = 4 + rng.below(5); // G49: 4-8 pieces
    for (int i = 0, placed = 0; i < pieces && !types.isEmpty(); ++i) {
        const QString type =
            i < types.size() ? types[i].toString() : types[rng.below(int(types.size()))].toString();
        for (int attempt = 0; attempt < 30; ++attempt) {
            const double w = uni(6, 12), d = uni(6, std::min(12.0, D - 2 * zone - 2));
            const double a0 = uni(1, W - 1 - w), d0 = uni(zone + 1, D - zone - 1 - d);
            const Box bx{a0, a0 + w, d0, d0 + d};
            if (!clear(bx))
                continue;
            addBox(type, bx, QStringLiteral("%1%2").arg(type.toLower()).arg(++placed));
            if (type == QLatin1String("Cropland")) {
                QJsonObject t = terrain.last().toObject();
                t.insert(QStringLiteral("roll"), crops);
                terrain.replace(terrain.size() - 1, t);
            }
            break;
        }
    }

    QJsonObject root;
    root.insert(QStringLiteral("format"), QStringLiteral("westphalia-tercios-scenario"));
    root.insert(QStringLiteral("version"), 1);
    root.insert(QStringLiteral("title"), in.title);
    root.insert(QStringLiteral("table"),
                QJsonObject{{QStringLiteral("w"), rules.tableW}, {QStringLiteral("d"), rules.tableD}});
    root.insert(QStringLiteral("turnLimit"), rules.turnLimit);
    // The victory conditions (L1507-1531): the scores of destroyed enemy units and the end table.
    {
        QJsonArray end;
        for (const TerciosRules::EndRow& row : rules.endTable)
            end << QJsonObject{{QStringLiteral("turn"), row.turn},
                               {QStringLiteral("advantage"), row.adv},
                               {QStringLiteral("victory"), row.level}};
        root.insert(
            QStringLiteral("victory"),
            QJsonObject{{QStringLiteral("score"),
                         QStringLiteral("a destroyed enemy squadron (every Foot unit but a company) 2, a "
                                        "Horse unit, company or gun 1 (L1507-1531, G52)")},
                        {QStringLiteral("endTable"), end},
                        {QStringLiteral("rule"),
                         QStringLiteral("at the end of a turn the game ends when the difference of the "
                                        "scores reaches the table's advantage; at the end of the last "
                                        "turn with none, a draw")}});
    }
    root.insert(QStringLiteral("pointsLimit"), pointsLimit);
    root.insert(QStringLiteral("attacker"), 0);
    root.insert(QStringLiteral("seed"), qint64(seed % 1000000007ULL));
    QJsonArray sides;
    QStringList notes;
    for (int side = 0; side < 2; ++side) {
        int rank = 0;
        QStringList leaders;
        for (const ForceLeader& l : in.sides[side].leaders) {
            rank = std::max(rank, l.battle);
            leaders << QStringLiteral("%1 (battle %2, %3)")
                           .arg(l.name)
                           .arg(l.battle)
                           .arg(counted(l.stars, "star"));
        }
        for (const QJsonObject& c : own[side]) // a card sets the rank (Hesitation: the enemy's is 0)
            if (c.value(QStringLiteral("effect")).toString() == QLatin1String("rank"))
                rank = c.value(QStringLiteral("value")).toInt(0);
        sides << QJsonObject{{QStringLiteral("name"), in.sides[side].name},
                             {QStringLiteral("faction"), b[side].faction},
                             {QStringLiteral("rank"), rank},
                             {QStringLiteral("points"), b[side].cost},
                             {QStringLiteral("campaignUnits"), int(in.sides[side].units.size())}};
        notes << QStringLiteral(
                     "%1 (%2): %3 points of %4 (reported for information). Leaders: %5; the highest battle "
                     "rating breaks initiative ties (Tercios L330, tercios-digest.md 11.5 step 5).")
                     .arg(in.sides[side].name, b[side].faction)
                     .arg(b[side].cost)
                     .arg(pointsLimit)
                     .arg(leaders.isEmpty() ? QStringLiteral("none") : leaders.join(QStringLiteral(", ")));
        notes << b[side].notes;
    }
    if (k > 1)
        notes << QStringLiteral(
                     "Scale: %1 campaign units per Tercios unit, so that both armies fit %2 points.")
                     .arg(k)
                     .arg(agreedLimit);
    if (pointsLimit > agreedLimit)
        notes << QStringLiteral("The cards played bring an army to %1 points: the limit of this battle is %1 "
                                "instead of %2 (Tercios L820: the players agree it; the scale comes from "
                                "the forces alone, so a card never makes the armies smaller).")
                     .arg(pointsLimit)
                     .arg(agreedLimit);
    notes << QStringLiteral("Deployment along the %1 edges (orientation roll %2, G48); zones %3\" deep, 12\" "
                            "from the centre line (Tercios L1503).")
                 .arg(longEdges ? QStringLiteral("long") : QStringLiteral("short"))
                 .arg(orient)
                 .arg(zone);
    notes << QStringLiteral("Units marked with Wear start depleted (a reduced campaign unit or a card; "
                            "tercios-digest.md 11.5 step 6).");
    if (in.fortress && !in.relief)
        notes << QStringLiteral("%1 is a fortress: its walls stand in front of the town.").arg(in.city);
    if (in.sally)
        notes << QStringLiteral("Sally (TYW 13.17): %1 out of the besieged %2, on its side of the "
                                "table; %3 %4 siege lines (a Wall, L1491, in front of %4 first "
                                "line). If the sally fails, the garrison falls back into the town.")
                     .arg(tactical::subject(in.sides[0].name, "attacks"), in.city,
                          tactical::subject(in.sides[1].name, "holds"), tactical::its(in.sides[1].name));
    if (in.relief)
        notes << QStringLiteral("Relief of a siege (TYW 13.15): %1 %2 besiegers, who hold their "
                                "siege lines (a Wall, L1491, in front of their first line) with %3 behind "
                                "them.%4")
                     .arg(tactical::subject(in.sides[0].name, "attacks"),
                          tactical::possessive(in.sides[1].name), in.city)
                     .arg(in.garrison <= 0 ? QString()
                          : garrisonAt.isEmpty()
                              ? QStringLiteral(" %1 of the attacker's campaign units are the garrison; %2.")
                                    .arg(in.garrison)
                                    .arg(playersDeploy && ownGarrison
                                             ? QStringLiteral("the players deploy its regiments (named the "
                                                              "garrison) in and beside the town, facing the "
                                                              "besiegers' rear")
                                             : QStringLiteral(
                                                   "it has no regiment of its own (at this scale, or "
                                                   "no room by the town) and marches with the relief "
                                                   "army"))
                              : QStringLiteral(" The garrison (%1 of the attacker's campaign units, %2) "
                                               "starts in and beside the town behind the besiegers, "
                                               "facing their rear; one Foot unit holds the town (a large "
                                               "Building, L1471).%3")
                                    .arg(in.garrison)
                                    .arg(counted(garrisonUnits, "Tercios unit"))
                                    .arg(marched
                                             ? QStringLiteral(" %1 of its regiments find no room there and "
                                                              "march with the relief army.")
                                                   .arg(marched)
                                             : QString()));
    if (in.neutralArea)
        notes << QStringLiteral("A Neutral Area (TYW 5.13): %1 keeps its gates shut; no unit may enter the "
                                "town (an impassable piece over it, 'closed-town', drawn cross-hatched).")
                     .arg(in.city.isEmpty() ? QStringLiteral("the town") : in.city);
    for (int side = 0; side < 2; ++side)
        if (!in.sides[side].leaders.isEmpty() && in.sides[side].leaders.first().stars > 0)
            notes << QStringLiteral("%1 is a Dynamic leader (%2). House rule (tercios-digest.md 11.5 "
                                    "step 5; Brevis has no Commanders): once per turn per star, %3 may "
                                    "re-roll one failed Order Check.")
                         .arg(in.sides[side].leaders.first().name,
                              counted(in.sides[side].leaders.first().stars, "star"), in.sides[side].name);
    notes << siteNotes;
    if (types.contains(QJsonValue(QStringLiteral("Cropland"))))
        notes << QStringLiteral("Cropland: roll %1, %2 (L1475)%3.")
                     .arg(crops)
                     .arg(crops <= 2   ? QStringLiteral("Difficult")
                          : crops <= 5 ? QStringLiteral("Covered and Difficult")
                                       : QStringLiteral("Covered, Hidden and Very Difficult"))
                     .arg(site.cropsStanding ? QString()
                                             : QStringLiteral("; out of season the fields are bare"));
    notes << cardNotes;
    root.insert(QStringLiteral("sides"), sides);
    if (!decor.isEmpty())
        root.insert(QStringLiteral("decor"), decor);
    root.insert(QStringLiteral("terrain"), terrain);
    root.insert(QStringLiteral("regiments"), regiments);
    if (playersDeploy) {
        root.insert(QStringLiteral("deploy"), true);
        notes << QStringLiteral(
                     "The players deploy (Tercios L1501-1505): the deployment roll's winner chooses "
                     "the side and places the first regiment, then alternately, each within %1\" "
                     "of its own edge (12\" from the centre line).")
                     .arg(zone);
    }
    QJsonArray na;
    for (const QString& n : notes)
        na << n;
    root.insert(QStringLiteral("notes"), na);
    root.insert(QStringLiteral("campaign"), QJsonObject{{QStringLiteral("city"), in.city},
                                                        {QStringLiteral("area"), in.area},
                                                        {QStringLiteral("year"), in.year},
                                                        {QStringLiteral("fortress"), in.fortress},
                                                        {QStringLiteral("month"), site.month},
                                                        {QStringLiteral("season"), site.season},
                                                        {QStringLiteral("scale"), k}});
    root.insert(QStringLiteral("deployment"),
                QJsonObject{{QStringLiteral("orientation"),
                             longEdges ? QStringLiteral("long") : QStringLiteral("short")},
                            {QStringLiteral("zoneDepth"), zone}});
    return root;
}

} // namespace wp::battle
