// The battle's site: river, roads, month and season (docs/battle-export.md "Rivers, roads, season").
#include "battle/site.h"

#include "battle/export.h"
#include "data/datadir.h"
#include "data/gamedata.h"
#include "rules/rng.h"
#include "tactical/battle.h"

#include <QFileInfo>

#include <algorithm>
#include <cmath>
#include <optional>

namespace wp::battle {

namespace {

constexpr double kPi = 3.14159265358979323846;

// Compass bearing (degrees, clockwise from north) from a to b, on a locally flat map.
double bearing(const City& a, const City& b) {
    const double dx = (b.lon - a.lon) * std::cos(a.lat * kPi / 180);
    const double dy = b.lat - a.lat;
    return std::atan2(dx, dy) * 180 / kPi;
}

std::optional<QPointF> cross(QPointF p, QPointF p2, QPointF q, QPointF q2) {
    const QPointF r = p2 - p, s = q2 - q;
    const double den = r.x() * s.y() - r.y() * s.x();
    if (std::abs(den) < 1e-9)
        return std::nullopt;
    const QPointF qp = q - p;
    const double t = (qp.x() * s.y() - qp.y() * s.x()) / den;
    const double u = (qp.x() * r.y() - qp.y() * r.x()) / den;
    if (t < 0 || t > 1 || u < 0 || u > 1)
        return std::nullopt;
    return p + t * r;
}

} // namespace

QString monthName(int month) {
    static const char* names[] = {"January", "February", "March",     "April",   "May",      "June",
                                  "July",    "August",   "September", "October", "November", "December"};
    return month >= 1 && month <= 12 ? QLatin1String(names[month - 1]) : QString();
}

bool loadSites(const QString& path, QJsonObject* cities, QString* error) {
    QJsonObject root;
    if (!wp::tactical::readJsonObject(path, &root, error))
        return false;
    if (root.value(QStringLiteral("format")).toString() != QLatin1String("westphalia-battle-terrain")) {
        *error = QStringLiteral("%1: format: 'westphalia-battle-terrain' is needed").arg(path);
        return false;
    }
    const QJsonObject c = root.value(QStringLiteral("cities")).toObject();
    for (auto it = c.begin(); it != c.end(); ++it) {
        const QJsonObject e = it.value().toObject();
        const QString kind = e.value(QStringLiteral("kind")).toString();
        const QString where = QStringLiteral("%1: cities.%2").arg(path, it.key());
        if (kind != QLatin1String("river") && kind != QLatin1String("stream") &&
            kind != QLatin1String("none")) {
            *error = QStringLiteral("%1.kind: '%2' is not river, stream or none").arg(where, kind);
            return false;
        }
        if (kind != QLatin1String("none") && e.value(QStringLiteral("river")).toString().isEmpty()) {
            *error = QStringLiteral("%1.river: the river's name is missing").arg(where);
            return false;
        }
        if (e.value(QStringLiteral("provenance")).toString().isEmpty()) {
            *error =
                QStringLiteral("%1.provenance: missing (every entry says where it comes from)").arg(where);
            return false;
        }
    }
    *cities = c;
    return true;
}

QString sitesPathFor(const QString& mappingPath) {
    const QString beside = QFileInfo(mappingPath).absolutePath() + QStringLiteral("/battle-terrain.json");
    if (!mappingPath.isEmpty() && QFileInfo::exists(beside))
        return beside;
    return wp::findDataDir() + QStringLiteral("/scenarios/battle-terrain.json");
}

void addMapRoads(const GameData& d, int city, int from, BattleInput* in) {
    in->roads.clear();
    if (city < 0 || city >= d.cities.size())
        return;
    const City& c = d.cities[city];
    if (from < 0 && !c.neighbours.isEmpty())
        from = c.neighbours.first();
    if (from < 0 || from >= d.cities.size() || from == city)
        return;
    const double approach = bearing(c, d.cities[from]);
    for (int n : c.neighbours) {
        // On the table: 0 = toward the defender's base edge, 180 = toward the attacker's (where `from` is).
        double a = bearing(c, d.cities[n]) - approach + 180;
        a = std::fmod(a + 720, 360);
        in->roads << BattleRoad{d.cities[n].name, std::round(a)};
    }
}

SitePlan planSite(const BattleInput& in, const QJsonObject& sites, const SiteShape& sh, wp::rules::Rng& rng) {
    SitePlan p;
    auto uni = [&](double a, double b) { return a + (b - a) * rng.below(1001) / 1000.0; };
    // Month: the battle's own, else the campaign season (March to November, reconstructed).
    p.month = in.month >= 1 && in.month <= 12 ? in.month : 3 + rng.below(9);
    p.season = p.month <= 2 || p.month == 12 ? QStringLiteral("winter")
               : p.month <= 5                ? QStringLiteral("spring")
               : p.month <= 8                ? QStringLiteral("summer")
                                             : QStringLiteral("autumn");
    p.cropsStanding = p.month >= 5 && p.month <= 8;
    p.notes << QStringLiteral("%1 %2 (%3%4): %5")
                   .arg(monthName(p.month))
                   .arg(in.year)
                   .arg(p.season)
                   .arg(in.month ? QString()
                                 : QStringLiteral(", rolled in the campaign season March-November"))
                   .arg(p.cropsStanding ? QStringLiteral("the crops stand in the fields.")
                                        : QStringLiteral("the fields are bare or harvested."));

    // The river: the battle's own, else the table of scenarios/battle-terrain.json.
    QString kind = in.riverKind, name = in.river, source = QStringLiteral("the battle description");
    if (kind.isEmpty()) {
        const QJsonObject e = sites.value(in.city).toObject();
        kind = e.value(QStringLiteral("kind")).toString();
        name = e.value(QStringLiteral("river")).toString();
        source = e.value(QStringLiteral("provenance")).toString().section(QLatin1Char(':'), 0, 0) +
                 QStringLiteral(", scenarios/battle-terrain.json");
    }
    if (kind == QLatin1String("river") || kind == QLatin1String("stream")) {
        p.river = name;
        p.riverKind = kind;
        p.riverSource = source;
    }
    p.freeLo = 0;
    p.freeHi = sh.W;
    const bool flank = p.riverKind == QLatin1String("river") || (!p.riverKind.isEmpty() && !sh.streamAcross);
    p.riverWidth = p.riverKind == QLatin1String("river") ? sh.riverWidth : sh.streamWidth;
    double townX = std::round(uni(sh.W / 4, 3 * sh.W / 4) * 2) / 2;
    if (flank) {
        // Along a flank from base edge to base edge (8.4: edge to opposite edge), the town on its bank.
        p.riverOnFlank = true;
        const bool right = rng.below(2) == 1;
        const double c = uni(sh.flankMin, sh.flankMax);
        double lo = sh.W, hi = 0;
        for (double depth : {0.0, sh.D / 3, 2 * sh.D / 3, sh.D}) {
            const double off = c + uni(-0.5, 0.5);
            const double x = right ? sh.W - off : off;
            p.riverLine << QPointF(x, depth);
            lo = std::min(lo, x - p.riverWidth / 2);
            hi = std::max(hi, x + p.riverWidth / 2);
        }
        if (right) {
            p.freeHi = lo - 0.5;
            townX = lo - 0.5 - sh.townW / 2;
        } else {
            p.freeLo = hi + 0.5;
            townX = hi + 0.5 + sh.townW / 2;
        }
    } else if (!p.riverKind.isEmpty()) {
        // A stream across the neutral zone, between the town and the other side's base edge.
        const bool townHigh = sh.townDepth > (sh.neutralLo + sh.neutralHi) / 2;
        const double top = townHigh ? std::min(sh.neutralHi, sh.townDepth - sh.townD / 2) - p.riverWidth - 0.5
                                    : sh.neutralHi - p.riverWidth - 0.5;
        const double bottom = townHigh
                                  ? sh.neutralLo + p.riverWidth + 0.5
                                  : std::max(sh.neutralLo, sh.townDepth + sh.townD / 2) + p.riverWidth + 0.5;
        for (double x : {0.0, sh.W / 3, 2 * sh.W / 3, sh.W})
            p.riverLine << QPointF(x, uni(bottom, std::max(bottom, top)));
    }
    p.town = QPointF(townX, sh.townDepth);

    // Two crossings keep their length along the water plus 0.5 apart (the pieces never overlap).
    auto clearOfCrossings = [&](QPointF at) {
        return std::none_of(p.crossings.begin(), p.crossings.end(), [&](const SiteCrossing& c) {
            return std::hypot(c.at.x() - at.x(), c.at.y() - at.y()) < sh.crossingAlong + 0.5;
        });
    };
    // Roads from the town to the table edge toward each neighbouring city (at most four); without any,
    // the road the attacker came along.
    QList<BattleRoad> roads = in.roads.mid(0, 4);
    if (roads.isEmpty())
        roads << BattleRoad{QString(), 180};
    for (const BattleRoad& r : roads) {
        const double a = r.angle * kPi / 180;
        const QPointF dir(std::sin(a), std::cos(a));
        double t = 1e9;
        if (dir.x() > 1e-6)
            t = std::min(t, (sh.W - p.town.x()) / dir.x());
        if (dir.x() < -1e-6)
            t = std::min(t, -p.town.x() / dir.x());
        if (dir.y() > 1e-6)
            t = std::min(t, (sh.D - p.town.y()) / dir.y());
        if (dir.y() < -1e-6)
            t = std::min(t, -p.town.y() / dir.y());
        const QPointF end = p.town + t * dir;
        const QPointF edge(std::round(end.x() * 100) / 100, std::round(end.y() * 100) / 100);
        p.roads << SiteRoad{r.to, {p.town, edge}};
        for (qsizetype i = 0; i + 1 < p.riverLine.size(); ++i)
            if (const auto x = cross(p.town, edge, p.riverLine[i], p.riverLine[i + 1]))
                if (clearOfCrossings(*x)) // roads crossing close together share the first one's bridge
                    p.crossings << SiteCrossing{*x, true, r.to};
    }
    // A river along a flank (a TVBD stream is crossable everywhere) also has a ford in the neutral zone on
    // a roll of 4-6, clear of the bridges (moved just past one it would overlap; none when no room is left).
    if (p.riverOnFlank && rng.below(6) >= 3) {
        const double lo = std::max(sh.neutralLo, sh.D / 3), hi = std::min(sh.neutralHi, 2 * sh.D / 3);
        double depth = uni(lo, hi);
        const double gap = sh.crossingAlong + 0.5;
        for (const SiteCrossing& c : p.crossings)
            if (std::abs(c.at.y() - depth) < gap)
                depth = depth >= c.at.y() && c.at.y() + gap <= hi ? c.at.y() + gap
                        : c.at.y() - gap >= lo                    ? c.at.y() - gap
                                                                  : c.at.y() + gap;
        const QPointF a = p.riverLine[1], b = p.riverLine[2];
        const double t = (depth - a.y()) / (b.y() - a.y());
        const QPointF at = a + t * (b - a);
        if (depth <= hi && clearOfCrossings(at))
            p.crossings << SiteCrossing{at, false, QString()};
    }

    QStringList towards;
    for (const SiteRoad& r : p.roads)
        if (!r.to.isEmpty())
            towards << r.to;
    p.notes << (towards.isEmpty()
                    ? QStringLiteral("A road runs from %1 to the attacker's base edge.")
                          .arg(in.city.isEmpty() ? QStringLiteral("the town") : in.city)
                    : QStringLiteral("Roads from %1 toward %2 (the map's pathways, in their real directions; "
                                     "the attacker comes along the road from %3).")
                          .arg(in.city, towards.join(QStringLiteral(", ")),
                               in.approach.isEmpty() ? towards.first() : in.approach));
    return p;
}

} // namespace wp::battle
