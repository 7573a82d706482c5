#include "mapstate.h"

#include "rules/internal.h"

#include <QMap>
#include <algorithm>
#include <tuple>

namespace wp {

namespace {

QString shortKind(UnitKind k) {
    switch (k) {
    case UnitKind::Veteran:
        return QStringLiteral("Vet");
    case UnitKind::Mercenary:
        return QStringLiteral("Merc");
    case UnitKind::Militia:
        return QStringLiteral("Mil");
    }
    return {};
}

QString leaderSublabel(const Leader& ld) {
    return QStringLiteral("%1-%2-%3%4")
        .arg(ld.activation)
        .arg(ld.leadership)
        .arg(ld.battle)
        .arg(QString(ld.stars, QChar(0x2605)));
}

Control toControl(int ctl) {
    return ctl == rules::kCath   ? Control::Catholic
           : ctl == rules::kProt ? Control::Protestant
                                 : Control::None;
}

} // namespace

int MapStack::unitCount() const {
    int n = 0;
    for (const MapCounter& c : counters)
        if (!c.leader)
            n += c.count;
    return n;
}

int MapStack::combatFactor() const {
    int n = 0;
    for (const MapCounter& c : counters)
        n += c.cf;
    return n;
}

QStringList MapStack::leaderNames() const {
    QStringList l;
    for (const MapCounter& c : counters)
        if (c.leader)
            l << c.label;
    return l;
}

int MapStack::loc() const {
    return city >= 0 ? city : box >= 0 ? rules::kBoxBase + box : -1;
}

MapState MapState::fromScenario(const GameData& d, const Scenario& s) {
    MapState m;
    m.title = QStringLiteral("%1 — turn %2").arg(s.name).arg(s.firstTurn);
    for (int a : s.neutralAreas)
        m.areaControl.insert(a, Control::Neutral);
    for (int a : s.controlAreas[0])
        m.areaControl.insert(a, Control::Catholic);
    for (int a : s.controlAreas[1])
        m.areaControl.insert(a, Control::Protestant);
    for (int c : s.controlCities[0])
        m.cityControl.insert(c, Control::Catholic);
    for (int c : s.controlCities[1])
        m.cityControl.insert(c, Control::Protestant);
    m.electorateArea = d.area(s.markers.value(QStringLiteral("electorate")).toString());
    m.franceInWar = s.aid[1].contains(QStringLiteral("france"));
    for (const ScenarioStack& st : s.stacks) {
        MapStack ms;
        ms.city = st.city;
        ms.box = st.box;
        for (int l : st.leaders) {
            const Leader& ld = d.leaders[l];
            const Nationality& n = d.nationalities[ld.nationality];
            ms.side = n.side == Side::Catholic ? 0 : 1;
            MapCounter c;
            c.leader = true;
            c.label = ld.counterName;
            c.sublabel = leaderSublabel(ld);
            c.color = n.color;
            c.textColor = n.textColor;
            ms.counters.append(c);
        }
        for (const ScenarioUnits& u : st.units) {
            const Nationality& n = d.nationalities[u.nationality];
            ms.side = n.side == Side::Catholic ? 0 : 1;
            const UnitType* t = d.unitType(u.nationality, u.kind);
            auto add = [&](int count, bool reduced) {
                if (count <= 0)
                    return;
                MapCounter c;
                c.label = QStringLiteral("%1 %2").arg(count).arg(shortKind(u.kind));
                c.sublabel = reduced ? QStringLiteral("%1 reduced").arg(n.name) : n.name;
                c.color = n.color;
                c.textColor = n.textColor;
                c.reduced = reduced;
                c.count = count;
                if (t)
                    c.cf = count * (reduced ? t->cfReduced : t->cfFull);
                ms.counters.append(c);
            };
            add(u.count, false);
            add(u.reduced, true);
        }
        m.stacks.append(ms);
    }
    return m;
}

MapState MapState::fromGame(const GameData& d, const rules::GameState& s) {
    using namespace rules;
    MapState m;
    const Scenario* sc = d.scenario(s.scenario);
    m.title = QStringLiteral("%1 — turn %2").arg(sc ? sc->name : s.scenario).arg(s.turn);
    for (qsizetype a = 0; a < d.areas.size() && a < static_cast<qsizetype>(s.areas.size()); ++a) {
        const AreaState& as = s.areas[static_cast<size_t>(a)];
        m.areaControl.insert(static_cast<int>(a),
                             as.neutral ? Control::Neutral
                                        : toControl(rules::areaControl(s, static_cast<int>(a))));
    }
    for (qsizetype c = 0; c < d.cities.size() && c < static_cast<qsizetype>(s.cities.size()); ++c) {
        const City& ct = d.cities[c];
        const CityState& cs = s.cities[static_cast<size_t>(c)];
        const int ci = static_cast<int>(c);
        const int ctl = effectiveCityControl(d, s, ci);
        // The map shows a city's own marker: Independent cities, cities held against their Area, France.
        const bool own = ct.independent || ct.area < 0 || cs.marker != kNone ||
                         (ct.area >= 0 && ctl != rules::areaControl(s, ct.area));
        if (own && ctl != kNone)
            m.cityControl.insert(ci, toControl(ctl));
        CityMarkers mk;
        mk.pillage = cs.pillage;
        mk.siege = cs.siege;
        mk.sieger = cs.sieger;
        mk.revolt = cs.revolt;
        mk.swedishBase = s.swedishBase == ci;
        if (ct.fortress && cs.siege == 0)
            for (int side : {kCatholic, kProtestant})
                if (anyUnitsOutside(s, ci, side, d) && anyUnitsInside(s, ci, other(side), d))
                    mk.masked = true;
        if (!mk.isEmpty())
            m.markers.insert(ci, mk);
    }
    m.electorateArea = s.electorate;
    m.franceInWar = s.franceInWar;
    m.denmarkInWar = s.denmarkInWar;
    m.swedenInWar = s.swedenInWar;

    // Stacks: per location, side, and inside/outside the fortress.
    struct Key {
        int loc, side, inside;
        bool operator<(const Key& o) const {
            return std::tie(loc, side, inside) < std::tie(o.loc, o.side, o.inside);
        }
    };
    QMap<Key, MapStack> stacks;
    auto stackFor = [&](int loc, int side, bool inside) -> MapStack& {
        Key k{loc, side, inside ? 1 : 0};
        auto it = stacks.find(k);
        if (it == stacks.end()) {
            MapStack ms;
            if (isCity(static_cast<int16_t>(loc)))
                ms.city = loc;
            else
                ms.box = loc - kBoxBase;
            ms.side = side;
            ms.inside = inside;
            it = stacks.insert(k, ms);
        }
        return it.value();
    };
    // Leaders: the commander first (a Dynamic leader, then the best Battle rating).
    std::vector<int> leaders;
    for (size_t l = 0; l < s.leaders.size(); ++l)
        if (s.leaders[l].status == LeaderStatus::InPlay &&
            (isCity(s.leaders[l].loc) || isBox(s.leaders[l].loc)))
            leaders.push_back(static_cast<int>(l));
    std::stable_sort(leaders.begin(), leaders.end(), [&](int a, int b) {
        const Leader& la = d.leaders[a];
        const Leader& lb = d.leaders[b];
        return la.stars * 100 + la.battle > lb.stars * 100 + lb.battle;
    });
    for (int l : leaders) {
        const Leader& ld = d.leaders[l];
        const LeaderState& ls = s.leaders[static_cast<size_t>(l)];
        const Nationality& n = d.nationalities[ld.nationality];
        MapCounter c;
        c.leader = true;
        c.label = ld.counterName;
        c.sublabel = leaderSublabel(ld);
        c.color = n.color;
        c.textColor = n.textColor;
        c.pieces << kLeaderBase + l;
        stackFor(ls.loc, leaderSide(d, s, l), ls.flags & kInside).counters.append(c);
    }
    // Units: identical ones (type and steps) grouped, veterans first.
    QMap<std::tuple<int, int, int, int, int>, MapCounter> groups; // loc, side, inside, type, steps
    for (size_t u = 0; u < s.units.size(); ++u) {
        const UnitState& us = s.units[u];
        if (!(isCity(us.loc) || isBox(us.loc)) || us.steps == 0)
            continue;
        const int ui = static_cast<int>(u);
        const int side = unitSide(d, s, ui);
        const auto key = std::make_tuple(static_cast<int>(us.loc), side, (us.flags & kInside) ? 1 : 0,
                                         static_cast<int>(us.type), static_cast<int>(us.steps));
        MapCounter& c = groups[key];
        c.pieces << ui;
        c.cf += unitCf(d, s, ui);
    }
    for (auto it = groups.begin(); it != groups.end(); ++it) {
        const auto [loc, side, inside, type, steps] = it.key();
        const UnitType& t = d.unitTypes[type];
        const Nationality& n = d.nationalities[t.nationality];
        MapCounter c = it.value();
        c.count = static_cast<int>(c.pieces.size());
        c.reduced = steps == 1;
        c.label = QStringLiteral("%1 %2").arg(c.count).arg(shortKind(t.kind));
        c.sublabel = c.reduced ? QStringLiteral("%1 reduced").arg(n.name) : n.name;
        c.color = n.color;
        c.textColor = n.textColor;
        stackFor(loc, side, inside != 0).counters.append(c);
    }
    // The activation in progress.
    int activeLoc = -1;
    if (!s.frames.empty())
        for (auto f = s.frames.rbegin(); f != s.frames.rend(); ++f)
            if (const auto* a = std::get_if<ActivationFrame>(&*f)) {
                activeLoc = a->at;
                for (int16_t v : a->visited)
                    if (m.path.isEmpty() || m.path.back() != v)
                        m.path << v;
                int limit = 8;
                for (size_t i = 0; i < a->units.size(); ++i)
                    limit = std::min(limit, a->joinedAt[i] + unitMa(d, s, a->units[i]));
                m.pathLabel = QStringLiteral("%1 of %2 MP").arg(a->mpUsed).arg(limit);
                bool inside = false;
                if (a->leader >= 0)
                    inside = s.leaders[static_cast<size_t>(a->leader)].flags & kInside;
                else if (a->freeUnit >= 0)
                    inside = s.units[static_cast<size_t>(a->freeUnit)].flags & kInside;
                else if (!a->leaders.empty())
                    inside = s.leaders[static_cast<size_t>(a->leaders.front())].flags & kInside;
                if (activeLoc >= 0)
                    for (auto& st : stacks)
                        if (st.loc() == activeLoc && st.side == a->side && st.inside == inside)
                            st.active = true;
                break;
            }
    for (const MapStack& st : stacks)
        if (!st.counters.isEmpty())
            m.stacks.append(st);
    return m;
}

} // namespace wp
