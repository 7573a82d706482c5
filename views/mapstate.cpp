#include "mapstate.h"

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

} // namespace

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
            MapCounter c;
            c.leader = true;
            c.label = ld.counterName;
            c.sublabel = QStringLiteral("%1-%2-%3%4")
                             .arg(ld.activation)
                             .arg(ld.leadership)
                             .arg(ld.battle)
                             .arg(QString(ld.stars, QChar(0x2605)));
            c.color = n.color;
            c.textColor = n.textColor;
            ms.counters.append(c);
        }
        for (const ScenarioUnits& u : st.units) {
            const Nationality& n = d.nationalities[u.nationality];
            auto add = [&](int count, bool reduced) {
                if (count <= 0)
                    return;
                MapCounter c;
                c.label = QStringLiteral("%1 %2").arg(count).arg(shortKind(u.kind));
                c.sublabel = reduced ? QStringLiteral("%1 reduced").arg(n.name) : n.name;
                c.color = n.color;
                c.textColor = n.textColor;
                c.reduced = reduced;
                ms.counters.append(c);
            };
            add(u.count, false);
            add(u.reduced, true);
        }
        m.stacks.append(ms);
    }
    return m;
}

} // namespace wp
