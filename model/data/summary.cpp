// `data check` summary and `data dump --json`.
#include "loader.h"

#include <QJsonArray>
#include <QTextStream>

namespace wp {

namespace {

QJsonObject provenanceJson(const Provenance& p) {
    QJsonObject o;
    for (auto it = p.begin(); it != p.end(); ++it)
        o.insert(it.key(), it.value());
    return o;
}

QJsonArray ids(const GameData& d, const QList<int>& cityIdx) {
    QJsonArray a;
    for (int i : cityIdx)
        a.append(d.cities[i].id);
    return a;
}

} // namespace

QString dataSummary(const GameData& d) {
    QString out;
    QTextStream s(&out);
    int independents = 0, fortresses = 0, ports = 0, offmap = 0, french = 0, electors = 0;
    for (const City& c : d.cities) {
        independents += c.independent;
        fortresses += c.fortress.has_value();
        ports += c.port;
        offmap += c.offmap;
        french += c.france;
        electors += c.elector;
    }
    for (const Area& a : d.areas)
        electors += a.elector;
    s << "data: " << d.dataDir << "\n";
    s << "fingerprint: " << d.fingerprint << "\n";
    s << "areas: " << d.areas.size() << "\n";
    s << "cities: " << d.cities.size() << " (independent " << independents << ", fortresses " << fortresses
      << ", ports " << ports << ", French " << french << " of which off-map " << offmap << ")\n";
    s << "electors at start: " << electors << "\n";
    s << "pathways: " << d.pathways.size() << "; boxes: " << d.boxes.size() << "; arrows: " << d.arrows.size()
      << "\n";
    s << "leaders: " << d.leaders.size() << "\n";
    s << "units by nationality and type:\n";
    for (const Nationality& n : d.nationalities) {
        QStringList parts;
        int nat = d.nationality(n.id);
        for (UnitKind k : {UnitKind::Veteran, UnitKind::Mercenary, UnitKind::Militia})
            if (const UnitType* u = d.unitType(nat, k)) {
                QString part = QStringLiteral("%1 %2").arg(u->count).arg(unitKindId(k));
                if (u->optionalExtra)
                    part += QStringLiteral(" (+%1 with %2)").arg(u->optionalExtra).arg(u->optionalRule);
                parts << part;
            }
        s << "  " << n.id << " (" << sideId(n.side)
          << "): " << (parts.isEmpty() ? QStringLiteral("none") : parts.join(", ")) << "\n";
    }
    int perDeck[2][3] = {};
    for (const Card& c : d.cards)
        ++perDeck[c.side == Side::Catholic ? 0 : 1][static_cast<int>(c.deck)];
    for (int side = 0; side < 2; ++side)
        s << "cards " << sideId(side ? Side::Protestant : Side::Catholic) << ": early " << perDeck[side][0]
          << ", intervention " << perDeck[side][1] << ", apocalypse " << perDeck[side][2] << "\n";
    s << "CRT columns: " << d.tables.crtColumns.size() << "\n";
    s << "scenarios:";
    for (const Scenario& sc : d.scenarios)
        s << " " << sc.id << " (turns " << sc.firstTurn << "-" << sc.lastTurn << ", VP " << sc.vp << ")";
    s << "\n";
    return out;
}

QJsonObject dumpGameData(const GameData& d) {
    QJsonObject root;
    root["fingerprint"] = QString::fromLatin1(d.fingerprint);
    QJsonArray areas;
    for (const Area& a : d.areas) {
        QJsonObject o{{"id", a.id},
                      {"name", a.name},
                      {"control", a.control},
                      {"vp", a.vp},
                      {"elector", a.elector},
                      {"germany", a.germany},
                      {"spanishZone", a.spanishZone},
                      {"cities", ids(d, a.cities)},
                      {"src", provenanceJson(a.src)}};
        areas.append(o);
    }
    root["areas"] = areas;
    QJsonArray cities;
    for (const City& c : d.cities) {
        QJsonObject o{{"id", c.id},
                      {"name", c.name},
                      {"area", c.area >= 0 ? QJsonValue(d.areas[c.area].id)
                                           : (c.france ? QJsonValue("france") : QJsonValue())},
                      {"independent", c.independent},
                      {"vp", c.vp},
                      {"elector", c.elector},
                      {"port", c.port},
                      {"offmap", c.offmap},
                      {"spanishZone", c.spanishZone},
                      {"lat", c.lat},
                      {"lon", c.lon},
                      {"neighbours", ids(d, c.neighbours)},
                      {"src", provenanceJson(c.src)}};
        if (c.within >= 0)
            o["within"] = d.areas[c.within].id;
        if (c.fortress)
            o["fortress"] =
                QJsonObject{{"strength", c.fortress->strength}, {"siegeModifier", c.fortress->siegeModifier}};
        cities.append(o);
    }
    root["cities"] = cities;
    QJsonArray boxes;
    for (const Box& b : d.boxes)
        boxes.append(QJsonObject{{"id", b.id}, {"name", b.name}, {"kind", b.kind}});
    root["boxes"] = boxes;
    QJsonArray arrows;
    for (const Arrow& a : d.arrows)
        arrows.append(
            QJsonObject{{"box", d.boxes[a.box].id}, {"city", d.cities[a.city].id}, {"oneWay", a.oneWay}});
    root["arrows"] = arrows;
    QJsonArray nats;
    for (const Nationality& n : d.nationalities)
        nats.append(QJsonObject{{"id", n.id},
                                {"name", n.name},
                                {"side", sideId(n.side)},
                                {"color", n.color},
                                {"supplyCities", ids(d, n.supplyCities)},
                                {"supplyBase", n.supplyBase}});
    root["nationalities"] = nats;
    QJsonArray units;
    for (const UnitType& u : d.unitTypes)
        units.append(QJsonObject{{"nationality", d.nationalities[u.nationality].id},
                                 {"type", unitKindId(u.kind)},
                                 {"count", u.count},
                                 {"optionalExtra", u.optionalExtra},
                                 {"cf", QJsonArray{u.cfFull, u.cfReduced}},
                                 {"lf", u.lf},
                                 {"ma", u.ma},
                                 {"src", provenanceJson(u.src)}});
    root["units"] = units;
    QJsonArray leaders;
    for (const Leader& l : d.leaders)
        leaders.append(
            QJsonObject{{"id", l.id},
                        {"name", l.name},
                        {"nationality", d.nationalities[l.nationality].id},
                        {"activation", l.activation},
                        {"leadership", l.leadership},
                        {"battle", l.battle},
                        {"loss", l.loss},
                        {"stars", l.stars},
                        {"reverse", l.reverse >= 0 ? QJsonValue(d.leaders[l.reverse].id) : QJsonValue()},
                        {"entry", l.entry},
                        {"src", provenanceJson(l.src)}});
    root["leaders"] = leaders;
    QJsonArray cards;
    for (const Card& c : d.cards) {
        QJsonObject aid;
        for (auto it = c.aid.begin(); it != c.aid.end(); ++it)
            aid.insert(it.key(), it.value());
        cards.append(QJsonObject{{"id", c.id},
                                 {"title", c.title},
                                 {"value", c.value},
                                 {"mark", cardMarkId(c.mark)},
                                 {"deck", deckId(c.deck)},
                                 {"combat", c.combat},
                                 {"unlessDiscarded", c.unlessDiscarded},
                                 {"aid", aid},
                                 {"event", c.event},
                                 {"rules", QJsonArray::fromStringList(c.rules)},
                                 {"src", provenanceJson(c.src)}});
    }
    root["cards"] = cards;
    QJsonArray cols;
    for (qsizetype i = 0; i < d.tables.crtColumns.size(); ++i) {
        QJsonArray row;
        for (int v : d.tables.crtLosses.value(i))
            row.append(v);
        cols.append(QJsonObject{{"label", d.tables.crtColumns[i].label}, {"losses", row}});
    }
    root["crt"] = cols;
    QJsonArray scenarios;
    for (const Scenario& s : d.scenarios)
        scenarios.append(QJsonObject{{"id", s.id},
                                     {"name", s.name},
                                     {"firstTurn", s.firstTurn},
                                     {"lastTurn", s.lastTurn},
                                     {"vp", s.vp},
                                     {"stacks", s.stacks.size()}});
    root["scenarios"] = scenarios;
    return root;
}

} // namespace wp
