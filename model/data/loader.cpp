#include "loader.h"

#include <QCryptographicHash>
#include <QDir>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QRegularExpression>
#include <QSet>

#include <algorithm>

namespace wp {

namespace {

const QString kMapFile = QStringLiteral("maps/map.json");
const QString kCountersFile = QStringLiteral("maps/counters.json");
const QString kTablesFile = QStringLiteral("maps/tables.json");
const QString kCardsFile = QStringLiteral("cards/cards.json");
const QString kScenarioDir = QStringLiteral("scenarios");
const QStringList kRequiredScenarios = {QStringLiteral("campaign"), QStringLiteral("early-war"),
                                        QStringLiteral("intervention"), QStringLiteral("apocalypse")};
const QStringList kDonors[2] = {{QStringLiteral("spain"), QStringLiteral("pope")},
                                {QStringLiteral("france"), QStringLiteral("england"), QStringLiteral("up")}};

constexpr int kFormat = 1;

// Reads the "src" object of `obj` and checks that every sourced field present in `obj` has a valid
// provenance (its own entry or "*").
Provenance readProvenance(const JNode& obj, const QStringList& sourcedFields) {
    Provenance p;
    JNode srcNode = obj[QStringLiteral("src")];
    if (srcNode.isNull()) {
        bool any = std::any_of(sourcedFields.begin(), sourcedFields.end(),
                               [&](const QString& f) { return obj.has(f); });
        if (any)
            srcNode.error(QStringLiteral("missing: every value needs its provenance (rules X.Y, derived: …, "
                                         "outside: …, reconstructed)"));
        return p;
    }
    if (srcNode.value().isString()) { // one source for the whole object
        p.insert(QStringLiteral("*"), srcNode.value().toString());
    } else {
        const QJsonObject o = srcNode.object();
        for (auto it = o.begin(); it != o.end(); ++it)
            p.insert(it.key(), it.value().toString());
    }
    for (auto it = p.begin(); it != p.end(); ++it) {
        if (!isValidProvenance(it.value()))
            srcNode[it.key()].error(QStringLiteral("'%1' is not a provenance (expected 'rules X.Y', "
                                                   "'derived: …', 'outside: …' or 'reconstructed')")
                                        .arg(it.value()));
    }
    for (const QString& f : sourcedFields) {
        if (!obj.has(f))
            continue;
        if (p.contains(f) || p.contains(QStringLiteral("*")))
            continue;
        if ((f == QLatin1String("lat") || f == QLatin1String("lon")) && p.contains(QStringLiteral("geo")))
            continue;
        srcNode.error(QStringLiteral("no provenance for field '%1'").arg(f));
    }
    return p;
}

// Maps an id to an index, reporting an unknown id at `node`.
int resolve(const QHash<QString, int>& index, const JNode& node, const QString& what,
            bool allowNull = false) {
    if (allowNull && node.isNull())
        return -1;
    const QString id = node.str();
    if (id.isEmpty())
        return -1;
    int i = index.value(id, -1);
    if (i < 0)
        node.error(QStringLiteral("unknown %1 '%2'").arg(what, id));
    return i;
}

void checkFormat(const JNode& root) {
    int f = root[QStringLiteral("format")].integer(1, 1000, kFormat);
    if (f != kFormat)
        root[QStringLiteral("format")].error(
            QStringLiteral("format %1 is not supported (this version reads format %2)").arg(f).arg(kFormat));
}

// Builds an id -> index table, reporting duplicates.
template <typename T>
QHash<QString, int> buildIndex(const QList<T>& items, const QList<JNode>& nodes, const QString& what,
                               QHash<QString, int>* shared = nullptr) {
    QHash<QString, int> idx;
    for (qsizetype i = 0; i < items.size(); ++i) {
        const QString& id = items[i].id;
        if (id.isEmpty())
            continue;
        if (idx.contains(id) || (shared && shared->contains(id)))
            nodes[i][QStringLiteral("id")].error(QStringLiteral("duplicate %1 id '%2'").arg(what, id));
        else
            idx.insert(id, static_cast<int>(i));
        if (shared)
            shared->insert(id, static_cast<int>(i));
    }
    return idx;
}

bool validId(const QString& id) {
    static const QRegularExpression re(QStringLiteral("^[a-z0-9]+(-[a-z0-9]+)*$"));
    return re.match(id).hasMatch();
}

QString readId(const JNode& n) {
    QString id = n[QStringLiteral("id")].str();
    if (!id.isEmpty() && !validId(id))
        n[QStringLiteral("id")].error(
            QStringLiteral("'%1' is not a valid id (lower-case ASCII words joined by '-')").arg(id));
    return id;
}

class Loader {
  public:
    Loader(QString dir, GameData& data, DataErrors& e) : m_dir(std::move(dir)), d(data), errs(e) {}

    void run() {
        loadMap();
        loadCounters();
        loadTables();
        loadCards();
        loadScenarios();
        computeFingerprint();
    }

  private:
    QString m_dir;
    GameData& d;
    DataErrors& errs;
    QList<QPair<QString, QByteArray>> m_raw; // for the fingerprint

    std::optional<JNode> open(const QString& rel) {
        QByteArray raw;
        auto root = readJsonFile(m_dir, rel, &errs, &raw);
        m_raw.append({rel, raw});
        if (root)
            checkFormat(*root);
        return root;
    }

    // ---------------------------------------------------------------- map
    void loadMap() {
        auto rootOpt = open(kMapFile);
        if (!rootOpt)
            return;
        const JNode root = *rootOpt;
        root.checkKeys({QStringLiteral("format"), QStringLiteral("areas"), QStringLiteral("france"),
                        QStringLiteral("cities"), QStringLiteral("boxes"), QStringLiteral("arrows"),
                        QStringLiteral("pathways"), QStringLiteral("decor"), QStringLiteral("projection")});

        const auto areaNodes = root[QStringLiteral("areas")].array();
        for (const JNode& n : areaNodes) {
            n.checkKeys({"id", "name", "control", "vp", "elector", "germany", "spanishZone", "box", "src"});
            Area a;
            a.id = readId(n);
            a.name = n["name"].str();
            a.control = n["control"].integer(1, 12, 1);
            a.vp = n["vp"].integer(0, 10);
            a.elector = n["elector"].boolean();
            a.germany = n["germany"].boolean(true);
            a.spanishZone = n["spanishZone"].boolean();
            const auto box = n["box"].array();
            if (box.size() == 2) {
                a.boxLat = box[0].number(-90, 90);
                a.boxLon = box[1].number(-180, 180);
            } else {
                n["box"].error(QStringLiteral("expected [latitude, longitude]"));
            }
            a.src = readProvenance(n, {"control", "vp", "elector", "germany", "spanishZone"});
            d.areas.append(a);
        }
        d.areaIndex = buildIndex(d.areas, areaNodes, QStringLiteral("area"));
        // 2.41: the map is divided into 24 Areas.
        if (d.areas.size() != 24)
            root["areas"].error(
                QStringLiteral("rules 2.41: the map has 24 Areas, found %1").arg(d.areas.size()));

        bool franceSpanishZone = true;
        {
            JNode f = root["france"];
            f.checkKeys({"name", "germany", "spanishZone", "src"});
            d.franceName = f["name"].str(QStringLiteral("France"));
            if (f["germany"].boolean(false))
                f["germany"].error(QStringLiteral("rules 2.46: France is not part of Germany"));
            franceSpanishZone = f["spanishZone"].boolean(true);
            readProvenance(f, {"germany", "spanishZone"});
        }

        const auto cityNodes = root["cities"].array();
        for (const JNode& n : cityNodes) {
            n.checkKeys({"id", "name", "area", "within", "independent", "vp", "elector", "fortress", "port",
                         "offmap", "spanishZone", "lat", "lon", "src"});
            City c;
            c.id = readId(n);
            c.name = n["name"].str();
            c.independent = n["independent"].boolean();
            if (n["area"].value().isString() && n["area"].value().toString() == QLatin1String("france")) {
                c.france = true;
            } else if (c.independent) {
                if (!n["area"].isNull())
                    n["area"].error(QStringLiteral("rules 2.41: an Independent city belongs to no Area "
                                                   "(use \"within\" for the Area it sits in)"));
            } else {
                c.area = resolve(d.areaIndex, n["area"], QStringLiteral("area"));
            }
            c.within = resolve(d.areaIndex, n["within"], QStringLiteral("area"), true);
            c.vp = n["vp"].optInteger(0, 10, 0);
            c.elector = n["elector"].optBoolean(false);
            if (!c.independent && c.elector)
                n["elector"].error(
                    QStringLiteral("rules 5.14: only Areas and Independent cities are Electorates"));
            if (!c.independent && !c.france && c.vp != 0)
                n["vp"].error(QStringLiteral("rules 2.43: only Independent (and French) cities carry VP"));
            JNode fn = n["fortress"];
            if (!fn.isNull()) {
                fn.checkKeys({"strength", "siegeModifier"});
                c.fortress = Fortress{fn["strength"].integer(1, 12, 1), fn["siegeModifier"].integer(-5, 5)};
            }
            c.port = n["port"].optBoolean(false);
            c.offmap = n["offmap"].optBoolean(false);
            if (c.offmap && !c.france)
                n["offmap"].error(QStringLiteral("rules 11.3: only France has off-map spaces"));
            bool ownZone = n["spanishZone"].optBoolean(false);
            if (c.independent)
                c.spanishZone = ownZone;
            else if (n.has("spanishZone") && c.area >= 0 && ownZone != d.areas[c.area].spanishZone)
                n["spanishZone"].error(
                    QStringLiteral("rules 17.Sp.2: a city is in the Spanish Zone exactly when "
                                   "its Area is (%1)")
                        .arg(d.areas[c.area].id));
            c.lat = n["lat"].number(30, 70);
            c.lon = n["lon"].number(-15, 40);
            c.src = readProvenance(n, {"area", "independent", "vp", "elector", "fortress", "port", "offmap",
                                       "spanishZone", "lat", "lon"});
            d.cities.append(c);
        }
        d.cityIndex = buildIndex(d.cities, cityNodes, QStringLiteral("city"));
        for (qsizetype i = 0; i < d.cities.size(); ++i) {
            City& c = d.cities[i];
            if (c.area >= 0) {
                d.areas[c.area].cities.append(static_cast<int>(i));
                c.spanishZone = d.areas[c.area].spanishZone;
            } else if (c.france) {
                c.spanishZone = franceSpanishZone;
            }
        }

        const auto boxNodes = root["boxes"].array();
        for (const JNode& n : boxNodes) {
            n.checkKeys({"id", "name", "kind", "lat", "lon", "src"});
            Box b;
            b.id = readId(n);
            b.name = n["name"].str();
            b.kind = n["kind"].str();
            if (!QStringList{"up", "denmark", "sweden"}.contains(b.kind))
                n["kind"].error(QStringLiteral("unknown box kind '%1' (up, denmark, sweden)").arg(b.kind));
            b.lat = n["lat"].number(30, 70);
            b.lon = n["lon"].number(-15, 40);
            b.src = readProvenance(n, {});
            d.boxes.append(b);
        }
        d.boxIndex = buildIndex(d.boxes, boxNodes, QStringLiteral("box"));
        for (const Box& b : d.boxes)
            if (d.cityIndex.contains(b.id))
                root["boxes"].error(QStringLiteral("box id '%1' is also a city id").arg(b.id));
        for (const QString& k : {QStringLiteral("up"), QStringLiteral("denmark"), QStringLiteral("sweden")})
            if (std::none_of(d.boxes.begin(), d.boxes.end(), [&](const Box& b) { return b.kind == k; }))
                root["boxes"].error(
                    QStringLiteral("no box of kind '%1' (rules 16.21, 17.D.3, 17.Sw.1)").arg(k));

        for (const JNode& n : root["arrows"].array()) {
            n.checkKeys({"box", "city", "oneWay", "src"});
            Arrow a;
            a.box = resolve(d.boxIndex, n["box"], QStringLiteral("box"));
            a.city = resolve(d.cityIndex, n["city"], QStringLiteral("city"));
            a.oneWay = n["oneWay"].boolean(true);
            a.src = n["src"].str();
            if (!a.src.isEmpty() && !isValidProvenance(a.src))
                n["src"].error(QStringLiteral("'%1' is not a provenance").arg(a.src));
            d.arrows.append(a);
        }
        checkArrows(root["arrows"]);

        QSet<QPair<int, int>> seen;
        for (const JNode& n : root["pathways"].array()) {
            n.checkKeys({"a", "b", "src"});
            Pathway p;
            p.a = resolve(d.cityIndex, n["a"], QStringLiteral("city"));
            p.b = resolve(d.cityIndex, n["b"], QStringLiteral("city"));
            p.src = n["src"].str();
            if (!p.src.isEmpty() && !isValidProvenance(p.src))
                n["src"].error(QStringLiteral("'%1' is not a provenance").arg(p.src));
            if (p.a < 0 || p.b < 0)
                continue;
            if (p.a == p.b) {
                n.error(QStringLiteral("a pathway from '%1' to itself").arg(d.cities[p.a].id));
                continue;
            }
            auto key = qMakePair(std::min(p.a, p.b), std::max(p.a, p.b));
            if (seen.contains(key)) {
                n.error(QStringLiteral("duplicate pathway %1 - %2").arg(d.cities[p.a].id, d.cities[p.b].id));
                continue;
            }
            seen.insert(key);
            d.pathways.append(p);
            d.cities[p.a].neighbours.append(p.b);
            d.cities[p.b].neighbours.append(p.a);
        }

        JNode decor = root["decor"];
        if (!decor.isNull()) {
            decor.checkKeys({"seas", "rivers", "src"});
            auto readLines = [&](const JNode& arr, QList<Polyline>& out, int minPoints) {
                for (const JNode& n : arr.array(false)) {
                    n.checkKeys({"name", "points"});
                    Polyline pl;
                    pl.name = n["name"].str();
                    for (const JNode& pt : n["points"].array()) {
                        const auto ll = pt.array();
                        if (ll.size() != 2) {
                            pt.error(QStringLiteral("expected [latitude, longitude]"));
                            continue;
                        }
                        pl.points.append({ll[0].number(-90, 90), ll[1].number(-180, 180)});
                    }
                    if (pl.points.size() < minPoints)
                        n["points"].error(QStringLiteral("needs at least %1 points").arg(minPoints));
                    out.append(pl);
                }
            };
            readLines(decor["seas"], d.seas, 3);
            readLines(decor["rivers"], d.rivers, 2);
        }

        checkMapConstraints(root);
    }

    void checkArrows(const JNode& arrowsNode) {
        int toUp = 0, toSweden = 0, toDenmark = 0;
        for (const Arrow& a : d.arrows) {
            if (a.box < 0 || a.city < 0)
                continue;
            const QString& kind = d.boxes[a.box].kind;
            if (kind == QLatin1String("up"))
                ++toUp;
            else if (kind == QLatin1String("sweden")) {
                ++toSweden;
                if (!d.cities[a.city].port)
                    arrowsNode.error(
                        QStringLiteral("rules 17.Sw.1: the Sweden arrow city '%1' must be a port")
                            .arg(d.cities[a.city].id));
            } else if (kind == QLatin1String("denmark"))
                ++toDenmark;
        }
        if (toUp != 4)
            arrowsNode.error(QStringLiteral("rules 16.21: there are 4 \"To UP\" arrows, found %1").arg(toUp));
        if (toSweden != 3)
            arrowsNode.error(
                QStringLiteral("rules 17.Sw.1: three port cities have arrows to Sweden, found %1")
                    .arg(toSweden));
        if (toDenmark != 2)
            arrowsNode.error(
                QStringLiteral("rules 17.D.3: Denmark has arrows to Rendsburg and Kiel, found %1")
                    .arg(toDenmark));
    }

    void checkMapConstraints(const JNode& root) {
        int independents = 0;
        int electors = 0;
        for (const City& c : d.cities) {
            if (c.independent)
                ++independents;
            if (c.elector)
                ++electors;
        }
        for (const Area& a : d.areas)
            if (a.elector)
                ++electors;
        // 2.43: 17 Independent City spaces.
        if (independents != 17)
            root["cities"].error(
                QStringLiteral("rules 2.43: there are 17 Independent cities, found %1").arg(independents));
        // 5.14: four Electoral Areas and three Electoral cities: seven electors.
        if (electors != 7)
            root.error(
                QStringLiteral("rules 5.14: there are 7 Electors at game start, found %1").arg(electors));

        for (qsizetype i = 0; i < d.areas.size(); ++i) {
            const Area& a = d.areas[i];
            if (a.control > a.cities.size())
                root["areas"].at(i)["control"].error(
                    QStringLiteral("rules 3.13: Control rating %1 but the Area has only %2 cities")
                        .arg(a.control)
                        .arg(a.cities.size()));
        }

        // Every space must be reachable: pathways, plus the arrows of the off-map boxes.
        const int n = static_cast<int>(d.cities.size());
        if (n == 0)
            return;
        QList<QList<int>> adj(n + d.boxes.size());
        for (const Pathway& p : d.pathways) {
            adj[p.a].append(p.b);
            adj[p.b].append(p.a);
        }
        for (const Arrow& a : d.arrows) {
            if (a.box < 0 || a.city < 0)
                continue;
            adj[n + a.box].append(a.city);
            adj[a.city].append(n + a.box);
        }
        QList<bool> seen(adj.size(), false);
        QList<int> queue{0};
        seen[0] = true;
        while (!queue.isEmpty()) {
            int v = queue.takeLast();
            for (int w : adj[v])
                if (!seen[w]) {
                    seen[w] = true;
                    queue.append(w);
                }
        }
        QStringList unreachable;
        for (qsizetype i = 0; i < adj.size(); ++i)
            if (!seen[i])
                unreachable << (i < n ? d.cities[i].id : d.boxes[i - n].id);
        if (!unreachable.isEmpty())
            root["pathways"].error(
                QStringLiteral("rules 11.12: the map is not connected; cannot reach %1 from %2")
                    .arg(unreachable.join(QStringLiteral(", ")), d.cities[0].id));
    }

    // ---------------------------------------------------------------- counters
    void loadCounters() {
        auto rootOpt = open(kCountersFile);
        if (!rootOpt)
            return;
        const JNode root = *rootOpt;
        root.checkKeys({"format", "nationalities", "units", "leaders"});
        const auto natNodes = root["nationalities"].array();
        for (const JNode& n : natNodes) {
            n.checkKeys({"id", "name", "side", "color", "text", "supplyBase", "supplyCities", "src"});
            Nationality nat;
            nat.id = readId(n);
            nat.name = n["name"].str();
            auto side = sideFromId(n["side"].str());
            if (!side)
                n["side"].error(QStringLiteral("expected 'catholic' or 'protestant'"));
            nat.side = side.value_or(Side::Catholic);
            nat.color = n["color"].str(QStringLiteral("#808080"));
            nat.textColor = n["text"].optStr(QStringLiteral("#000000"));
            static const QRegularExpression hex(QStringLiteral("^#[0-9a-fA-F]{6}$"));
            if (!hex.match(nat.color).hasMatch())
                n["color"].error(QStringLiteral("expected a colour like #a0b0c0"));
            nat.supplyBase = n["supplyBase"].optStr();
            for (const JNode& c : n["supplyCities"].array(false)) {
                int ci = resolve(d.cityIndex, c, QStringLiteral("city"));
                if (ci >= 0)
                    nat.supplyCities.append(ci);
            }
            nat.src = readProvenance(n, {"supplyCities"});
            d.nationalities.append(nat);
        }
        d.nationalityIndex = buildIndex(d.nationalities, natNodes, QStringLiteral("nationality"));
        int code = 0; // in NatCode's order
        for (const char* id : {"imperial", "bavarian", "spanish", "saxon", "protestant", "hungarian",
                               "danish", "swedish", "french", "english"}) {
            if (!d.nationalityIndex.contains(QLatin1String(id)))
                root["nationalities"].error(
                    QStringLiteral("rules 17.0: nationality '%1' is missing").arg(QLatin1String(id)));
            else
                d.nationalities[d.nationalityIndex.value(QLatin1String(id))].code =
                    static_cast<NatCode>(code);
            ++code;
        }

        const auto unitNodes = root["units"].array();
        QSet<QPair<int, int>> seenTypes;
        for (const JNode& n : unitNodes) {
            n.checkKeys(
                {"nationality", "type", "count", "optionalExtra", "optionalRule", "cf", "lf", "ma", "src"});
            UnitType u;
            u.nationality = resolve(d.nationalityIndex, n["nationality"], QStringLiteral("nationality"));
            auto kind = unitKindFromId(n["type"].str());
            if (!kind)
                n["type"].error(QStringLiteral("expected 'veteran', 'mercenary' or 'militia'"));
            u.kind = kind.value_or(UnitKind::Mercenary);
            u.count = n["count"].integer(0, 60);
            u.optionalExtra = n["optionalExtra"].optInteger(0, 10, 0);
            u.optionalRule = n["optionalRule"].optStr();
            if (u.optionalExtra > 0 && u.optionalRule.isEmpty())
                n["optionalRule"].error(
                    QStringLiteral("extra counters need the optional rule that uses them"));
            const auto cf = n["cf"].array();
            if (cf.size() == 2) {
                u.cfFull = cf[0].integer(1, 12, 1);
                u.cfReduced = cf[1].integer(0, 12, 0);
                if (u.cfReduced > u.cfFull)
                    n["cf"].error(
                        QStringLiteral("reduced CF %1 exceeds full CF %2").arg(u.cfReduced).arg(u.cfFull));
            } else {
                n["cf"].error(QStringLiteral("expected [full, reduced]"));
            }
            u.lf = n["lf"].integer(1, 12, 1);
            u.ma = n["ma"].integer(1, 12, 1);
            u.src = readProvenance(n, {"count", "cf", "lf", "ma"});
            auto key = qMakePair(u.nationality, static_cast<int>(u.kind));
            if (u.nationality >= 0 && seenTypes.contains(key))
                n.error(
                    QStringLiteral("duplicate unit type %1 %2").arg(n["nationality"].str(), n["type"].str()));
            seenTypes.insert(key);
            d.unitTypes.append(u);
        }

        const auto leaderNodes = root["leaders"].array();
        QList<QString> reverseIds;
        for (const JNode& n : leaderNodes) {
            n.checkKeys({"id", "name", "nationality", "activation", "leadership", "battle", "loss", "stars",
                         "reverse", "replacement", "optionalRule", "entry", "src", "reverseRule",
                         "counterName"});
            Leader l;
            l.id = readId(n);
            l.name = n["name"].str();
            l.counterName = n["counterName"].optStr(l.name);
            l.reverseRule = n["reverseRule"].optStr(QStringLiteral("12.42"));
            l.nationality = resolve(d.nationalityIndex, n["nationality"], QStringLiteral("nationality"));
            l.activation = n["activation"].integer(1, 3, 1); // 8.3: compared with card values 1-3
            l.leadership = n["leadership"].integer(0, 8);
            l.battle = n["battle"].integer(-3, 4);
            l.loss = n["loss"].integer(1, 10, 9);
            l.stars = n["stars"].integer(0, 2);
            reverseIds.append(n["reverse"].optStr());
            l.replacement = n["replacement"].optBoolean(false);
            l.optionalRule = n["optionalRule"].optStr();
            l.entry = n["entry"].optStr(QStringLiteral("setup"));
            l.src = readProvenance(n, {"activation", "leadership", "battle", "loss", "stars", "reverse"});
            d.leaders.append(l);
        }
        d.leaderIndex = buildIndex(d.leaders, leaderNodes, QStringLiteral("leader"));
        for (qsizetype i = 0; i < d.leaders.size(); ++i) {
            if (reverseIds[i].isEmpty())
                continue;
            d.leaders[i].reverse =
                resolve(d.leaderIndex, leaderNodes[i]["reverse"], QStringLiteral("leader"));
            if (d.leaders[i].reverse == i)
                leaderNodes[i]["reverse"].error(QStringLiteral("a leader cannot be his own replacement"));
        }
    }

    // ---------------------------------------------------------------- tables
    RollTable readRollTable(const JNode& n, const QString& name, int rollMin, int rollMax,
                            const QStringList& resultFields) {
        RollTable t;
        t.name = name;
        t.rollMin = rollMin;
        t.rollMax = rollMax;
        if (!n.isObject()) {
            n.error(QStringLiteral("missing table"));
            return t;
        }
        n.checkKeys({"rolls", "modifiers", "src", "rollMin", "rollMax", "results", "notes", "naturals",
                     "clamp", "conditions"});
        // The modified-roll range the table covers; rolls outside it are clamped to it.
        t.rollMin = n["rollMin"].integer(-20, 40, rollMin);
        t.rollMax = n["rollMax"].integer(-20, 40, rollMax);
        if (t.rollMin > rollMin || t.rollMax < rollMax)
            n.error(QStringLiteral("the table must cover at least modified rolls %1..%2")
                        .arg(rollMin)
                        .arg(rollMax));
        for (const JNode& b : n["rolls"].array()) {
            QStringList allowed{"min", "max", "label"};
            allowed << resultFields;
            b.checkKeys(allowed);
            RollBand band;
            band.min = b["min"].integer(-20, 40);
            band.max = b["max"].integer(-20, 40);
            if (band.max < band.min)
                b.error(QStringLiteral("max %1 below min %2").arg(band.max).arg(band.min));
            QJsonObject res = b.object();
            res.remove(QStringLiteral("min"));
            res.remove(QStringLiteral("max"));
            band.result = res;
            t.bands.append(band);
        }
        // The bands must cover the whole modified-roll range, once.
        for (int r = t.rollMin; r <= t.rollMax; ++r) {
            int hits = 0;
            for (const RollBand& b : t.bands)
                if (r >= b.min && r <= b.max)
                    ++hits;
            if (hits == 0)
                n["rolls"].error(QStringLiteral("no result for modified roll %1").arg(r));
            else if (hits > 1)
                n["rolls"].error(QStringLiteral("%1 results for modified roll %2").arg(hits).arg(r));
        }
        t.modifiers = n["modifiers"].value().toArray();
        t.extra = n.object();
        t.src = readProvenance(n, {"rolls", "modifiers", "naturals", "rollMin", "rollMax"});
        return t;
    }

    void loadTables() {
        auto rootOpt = open(kTablesFile);
        if (!rootOpt)
            return;
        const JNode root = *rootOpt;
        root.checkKeys({"format", "crt", "siege", "recruit", "loot", "peace"});
        Tables& t = d.tables;

        JNode crt = root["crt"];
        crt.checkKeys({"columns", "losses", "src", "notes", "rollMin", "rollMax"});
        if (crt["rollMin"].optInteger(0, 0, 0) != 0 || crt["rollMax"].optInteger(11, 11, 11) != 11)
            crt.error(QStringLiteral("rules 12.26: the CRT covers modified rolls 0..11"));
        for (const JNode& c : crt["columns"].array()) {
            c.checkKeys({"label", "min", "max"});
            CrtColumn col;
            col.label = c["label"].str();
            col.min = c["min"].integer(1, 200, 1);
            col.max = c["max"].isNull() ? -1 : c["max"].integer(1, 200, 1);
            t.crtColumns.append(col);
        }
        // 12.25: one column for every combat strength from 1 up, the last open-ended.
        int expect = 1;
        for (qsizetype i = 0; i < t.crtColumns.size(); ++i) {
            const CrtColumn& col = t.crtColumns[i];
            if (col.min != expect)
                crt["columns"].at(i)["min"].error(
                    QStringLiteral("columns must follow on without gap or overlap: expected min %1")
                        .arg(expect));
            bool last = i == t.crtColumns.size() - 1;
            if (last != (col.max < 0))
                crt["columns"].at(i)["max"].error(
                    QStringLiteral("only the last column is open-ended (max null)"));
            expect = col.max + 1;
        }
        const auto rows = crt["losses"].array();
        if (rows.size() != t.crtColumns.size())
            crt["losses"].error(QStringLiteral("expected one row per column (%1), found %2")
                                    .arg(t.crtColumns.size())
                                    .arg(rows.size()));
        for (qsizetype ci = 0; ci < rows.size(); ++ci) {
            QList<int> row;
            const auto cells = rows[ci].array();
            // 12.26: modified rolls run 0..11.
            if (cells.size() != 12)
                rows[ci].error(
                    QStringLiteral("rules 12.26: expected 12 loss numbers (modified rolls 0-11), found %1")
                        .arg(cells.size()));
            for (const JNode& cell : cells)
                row.append(cell.integer(0, 99));
            for (qsizetype r = 1; r < row.size(); ++r)
                if (row[r] < row[r - 1])
                    rows[ci].at(r).error(QStringLiteral("loss numbers must not fall as the roll rises"));
            if (ci > 0 && row.size() == t.crtLosses.constLast().size())
                for (qsizetype r = 0; r < row.size(); ++r)
                    if (row[r] < t.crtLosses.constLast()[r])
                        rows[ci].at(r).error(
                            QStringLiteral("loss numbers must not fall from column to column"));
            t.crtLosses.append(row);
        }
        t.crtSrc = readProvenance(crt, {"columns", "losses"});

        // Each table covers at least every natural d10 roll (0-9) and what its printed modifiers reach.
        t.siege = readRollTable(root["siege"], QStringLiteral("siege"), -2, 12, {"result", "steps", "text"});
        t.recruit = readRollTable(root["recruit"], QStringLiteral("recruit"), -1, 11, {"steps", "text"});
        t.loot = readRollTable(root["loot"], QStringLiteral("loot"), -2, 14,
                               {"paid", "pillage", "steps", "result", "text"});
        t.peace = readRollTable(root["peace"], QStringLiteral("peace"), -1, 10, {"result", "text"});
        static const QStringList peaceResults{"PMV", "CW", "TRUCE", "BW", "PW", "CMV"};
        for (const RollBand& b : t.peace.bands)
            if (!peaceResults.contains(b.result.value(QStringLiteral("result")).toString()))
                root["peace"]["rolls"].error(
                    QStringLiteral("rules 5.3: peace results are PMV, CW, TRUCE, BW, PW, CMV; found '%1'")
                        .arg(b.result.value(QStringLiteral("result")).toString()));
    }

    // ---------------------------------------------------------------- cards
    void loadCards() {
        auto rootOpt = open(kCardsFile);
        if (!rootOpt)
            return;
        const JNode root = *rootOpt;
        root.checkKeys({"format", "cards"});
        const auto nodes = root["cards"].array();
        for (const JNode& n : nodes) {
            n.checkKeys({"id", "side", "number", "title", "value", "mark", "deck", "combat",
                         "unlessDiscarded", "aid", "event", "rules", "src"});
            Card c;
            c.id = n["id"].str();
            auto side = sideFromId(n["side"].str());
            if (!side)
                n["side"].error(QStringLiteral("expected 'catholic' or 'protestant'"));
            c.side = side.value_or(Side::Catholic);
            c.number = n["number"].integer(1, 55, 1);
            const QString expectId =
                QStringLiteral("%1%2").arg(c.side == Side::Catholic ? 'C' : 'P').arg(c.number);
            if (!c.id.isEmpty() && c.id != expectId)
                n["id"].error(
                    QStringLiteral("id '%1' does not match side and number (%2)").arg(c.id, expectId));
            c.title = n["title"].str();
            c.value = n["value"].integer(1, 3, 1); // 8.3: card values 1-3
            const QString mark = n["mark"].str();
            if (mark == QLatin1String("asterisk"))
                c.mark = CardMark::Asterisk;
            else if (mark == QLatin1String("dagger"))
                c.mark = CardMark::Dagger;
            else if (mark != QLatin1String("none"))
                n["mark"].error(QStringLiteral("expected 'asterisk', 'dagger' or 'none'"));
            auto deck = deckFromId(n["deck"].str());
            if (!deck)
                n["deck"].error(QStringLiteral("expected 'early', 'intervention' or 'apocalypse'"));
            c.deck = deck.value_or(Deck::Early);
            c.combat = n["combat"].boolean();
            c.unlessDiscarded = n["unlessDiscarded"].optBoolean(false);
            const QJsonObject aid = n["aid"].object();
            const QStringList& donors = kDonors[c.side == Side::Catholic ? 0 : 1];
            for (auto it = aid.begin(); it != aid.end(); ++it) {
                if (!donors.contains(it.key())) {
                    n["aid"][it.key()].error(
                        QStringLiteral("rules 14.3-14.4: '%1' gives no aid on %2 cards (donors: %3)")
                            .arg(it.key(), sideId(c.side), donors.join(QStringLiteral(", "))));
                    continue;
                }
                c.aid.insert(it.key(), n["aid"][it.key()].integer(0, 12));
            }
            c.event = n["event"].str();
            c.rules = n["rules"].stringList(false);
            c.src = readProvenance(n, {"value", "mark", "deck", "combat", "unlessDiscarded", "aid", "event"});
            d.cards.append(c);
        }
        d.cardIndex = buildIndex(d.cards, nodes, QStringLiteral("card"));

        // 1.3/2.3: two decks of 55 cards; 15 Catholic and 14 Protestant Early War cards (2.3 note).
        int count[2] = {0, 0}, early[2] = {0, 0};
        for (const Card& c : d.cards) {
            int s = c.side == Side::Catholic ? 0 : 1;
            ++count[s];
            if (c.deck == Deck::Early)
                ++early[s];
        }
        for (int s = 0; s < 2; ++s) {
            const QString name = sideId(s == 0 ? Side::Catholic : Side::Protestant);
            if (count[s] != 55)
                root["cards"].error(
                    QStringLiteral("rules 2.3: the %1 deck has 55 cards, found %2").arg(name).arg(count[s]));
            const int wantEarly = s == 0 ? 15 : 14;
            if (early[s] != wantEarly)
                root["cards"].error(
                    QStringLiteral("rules 2.3 note: there are %1 %2 Early War cards, found %3")
                        .arg(wantEarly)
                        .arg(name)
                        .arg(early[s]));
        }
        // 8.12: France Enters War (P17) adds the Apocalypse cards, so it cannot be one of them.
        int p17 = d.card(QStringLiteral("P17"));
        if (p17 >= 0 && d.cards[p17].deck == Deck::Apocalypse)
            nodes[p17]["deck"].error(
                QStringLiteral("rules 8.12: P17 adds the Apocalypse cards, so it is not one"));
    }

    // ---------------------------------------------------------------- scenarios
    void loadScenarios() {
        QDir dir(m_dir + QLatin1Char('/') + kScenarioDir);
        const QStringList files = dir.entryList({QStringLiteral("*.json")}, QDir::Files, QDir::Name);
        for (const QString& f : files)
            if (!f.startsWith(
                    QLatin1String("battle-"))) // battle-*.json: the battle export's mapping (issue 9)
                loadScenario(kScenarioDir + QLatin1Char('/') + f);
        QList<JNode> dummy;
        for (const Scenario& s : d.scenarios) {
            if (d.scenarioIndex.contains(s.id))
                errs.add(s.file, QStringLiteral("$.id"),
                         QStringLiteral("duplicate scenario id '%1'").arg(s.id));
            d.scenarioIndex.insert(s.id, static_cast<int>(&s - d.scenarios.data()));
        }
        for (const QString& id : kRequiredScenarios)
            if (!d.scenarioIndex.contains(id))
                errs.add(kScenarioDir, {}, QStringLiteral("rules 18.0: scenario '%1' is missing").arg(id));
    }

    void loadScenario(const QString& rel) {
        auto rootOpt = open(rel);
        if (!rootOpt)
            return;
        const JNode root = *rootOpt;
        root.checkKeys({"format",
                        "id",
                        "name",
                        "rule",
                        "turns",
                        "vp",
                        "decks",
                        "removedCards",
                        "stacks",
                        "control",
                        "neutral",
                        "aid",
                        "electors",
                        "markers",
                        "pillage",
                        "noPeaceOffer",
                        "victory",
                        "notes",
                        "src",
                        "laterDecks",
                        "removedNotPlayed",
                        "cardDeployments"});
        Scenario s;
        s.file = rel;
        s.id = readId(root);
        s.name = root["name"].str();
        s.rule = root["rule"].optStr();
        s.firstTurn = root["turns"]["first"].integer(1, 14, 1);
        s.lastTurn = root["turns"]["last"].integer(1, 14, 14);
        if (s.lastTurn < s.firstTurn)
            root["turns"].error(QStringLiteral("last turn before first turn"));
        s.vp = root["vp"].integer(0, 60); // 5.21: the track runs to 50 (early victory) and beyond
        auto readDecks = [&](const JNode& arr, QList<Deck>& out, bool required) {
            for (const JNode& n : arr.array(required)) {
                auto dk = deckFromId(n.str());
                if (!dk)
                    n.error(QStringLiteral("expected 'early', 'intervention' or 'apocalypse'"));
                else
                    out.append(*dk);
            }
        };
        readDecks(root["decks"], s.decks, true);
        readDecks(root["laterDecks"], s.laterDecks, false);
        auto readCards = [&](const JNode& arr, QList<int>& out) {
            for (const JNode& n : arr.array(false)) {
                int c = resolve(d.cardIndex, n, QStringLiteral("card"));
                if (c >= 0)
                    out.append(c);
            }
        };
        readCards(root["removedCards"], s.removedCards);
        readCards(root["removedNotPlayed"], s.removedNotPlayed);

        for (const JNode& n : root["stacks"].array())
            s.stacks.append(readStack(n, false));
        for (const JNode& n : root["cardDeployments"].array(false)) {
            s.deployments.append(readStack(n, true));
            s.deploymentCards << n["card"].str();
            resolve(d.cardIndex, n["card"], QStringLiteral("card"));
        }

        for (int side = 0; side < 2; ++side) {
            JNode c = root["control"][sideId(side == 0 ? Side::Catholic : Side::Protestant)];
            c.checkKeys({"areas", "cities"});
            for (const JNode& a : c["areas"].array(false)) {
                int ai = resolve(d.areaIndex, a, QStringLiteral("area"));
                if (ai >= 0)
                    s.controlAreas[side].append(ai);
            }
            for (const JNode& ci : c["cities"].array(false)) {
                int i = resolve(d.cityIndex, ci, QStringLiteral("city"));
                if (i >= 0)
                    s.controlCities[side].append(i);
            }
            const QString sid = sideId(side == 0 ? Side::Catholic : Side::Protestant);
            s.aid[side] = root["aid"][sid].stringList(false);
            for (const QString& donor : s.aid[side])
                if (!kDonors[side].contains(donor) && donor != QLatin1String("savoy") &&
                    donor != QLatin1String("sweden"))
                    root["aid"][sid].error(QStringLiteral("'%1' is not a %2 aid source").arg(donor, sid));
            s.electors[side] = root["electors"][sid].stringList(false);
        }
        for (const JNode& a : root["neutral"].array(false)) {
            int ai = resolve(d.areaIndex, a, QStringLiteral("area"));
            if (ai >= 0)
                s.neutralAreas.append(ai);
        }
        s.markers = root["markers"].object();
        s.pillage = root["pillage"].value();
        const QString np = root["noPeaceOffer"].optStr();
        if (!np.isEmpty()) {
            s.noPeaceOffer = sideFromId(np);
            if (!s.noPeaceOffer)
                root["noPeaceOffer"].error(QStringLiteral("expected 'catholic', 'protestant' or null"));
        }
        s.victory = root["victory"].object();
        for (const QJsonValue& v : s.victory.value(QLatin1String("sudden")).toArray())
            if (v.toObject().value(QLatin1String("when")).toString() == QLatin1String("immediate"))
                s.immediateVictory.append(v);
        s.notes = root["notes"].stringList(false);
        s.src = readProvenance(root, {});
        checkScenario(root, s);
        d.scenarios.append(s);
    }

    ScenarioStack readStack(const JNode& n, bool deployment) {
        ScenarioStack st;
        if (deployment) {
            n.checkKeys({"card", "rule", "city", "default", "where", "leaders", "units", "optional", "src"});
            const JNode where = n["city"].isNull() ? n["default"] : n["city"];
            st.city = resolve(d.cityIndex, where, QStringLiteral("city"));
            for (const JNode& o : n["optional"].array(false)) {
                o.checkKeys({"leaders", "optionalRule"});
                for (const JNode& l : o["leaders"].array(false))
                    resolve(d.leaderIndex, l, QStringLiteral("leader"));
            }
        } else {
            n.checkKeys({"city", "box", "leaders", "units", "optionalRule", "note", "src"});
            if (n.has("box"))
                st.box = resolve(d.boxIndex, n["box"], QStringLiteral("box"));
            else
                st.city = resolve(d.cityIndex, n["city"], QStringLiteral("city"));
        }
        for (const JNode& l : n["leaders"].array(false)) {
            int li = resolve(d.leaderIndex, l, QStringLiteral("leader"));
            if (li >= 0)
                st.leaders.append(li);
        }
        for (const JNode& u : n["units"].array(false)) {
            u.checkKeys({"nationality", "type", "count", "reduced"});
            ScenarioUnits su;
            su.nationality = resolve(d.nationalityIndex, u["nationality"], QStringLiteral("nationality"));
            auto kind = unitKindFromId(u["type"].str());
            if (!kind)
                u["type"].error(QStringLiteral("expected 'veteran', 'mercenary' or 'militia'"));
            su.kind = kind.value_or(UnitKind::Mercenary);
            su.count = u["count"].optInteger(0, 8, 0);
            su.reduced = u["reduced"].optInteger(0, 8, 0);
            if (su.count + su.reduced == 0)
                u.error(QStringLiteral("no units"));
            if (su.nationality >= 0 && !d.unitType(su.nationality, su.kind))
                u.error(QStringLiteral("the counter mix has no %1 %2 units")
                            .arg(d.nationalities[su.nationality].id, unitKindId(su.kind)));
            st.units.append(su);
        }
        st.optionalRule = n["optionalRule"].optStr();
        return st;
    }

    void checkScenario(const JNode& root, const Scenario& s) {
        // Areas: controlled by at most one side; Neutral exactly when controlled by none.
        for (qsizetype a = 0; a < d.areas.size(); ++a) {
            int ai = static_cast<int>(a);
            bool cath = s.controlAreas[0].contains(ai), prot = s.controlAreas[1].contains(ai);
            bool neutral = s.neutralAreas.contains(ai);
            if (cath && prot)
                root["control"].error(
                    QStringLiteral("Area '%1' is controlled by both sides").arg(d.areas[a].id));
            if (neutral && (cath || prot))
                root["neutral"].error(
                    QStringLiteral("Area '%1' is both Neutral and controlled").arg(d.areas[a].id));
            if (!neutral && !cath && !prot)
                root["neutral"].error(QStringLiteral("Area '%1' is neither controlled nor listed as Neutral")
                                          .arg(d.areas[a].id));
        }
        for (int ci : s.controlCities[0])
            if (s.controlCities[1].contains(ci))
                root["control"].error(
                    QStringLiteral("city '%1' is controlled by both sides").arg(d.cities[ci].id));

        // Printed electors must agree with control (5.141), given where the Electorate marker is (5.142).
        const QString electorate = s.markers.value(QStringLiteral("electorate")).toString();
        const int elArea = d.area(electorate);
        if (!electorate.isEmpty() && elArea < 0)
            root["markers"]["electorate"].error(QStringLiteral("unknown area '%1'").arg(electorate));
        auto isElector = [&](int areaIdx) {
            const QString& id = d.areas[areaIdx].id;
            if (id == QLatin1String("lower-palatinate") || id == QLatin1String("bavaria"))
                return elArea >= 0 ? areaIdx == elArea : d.areas[areaIdx].elector;
            return d.areas[areaIdx].elector;
        };
        for (int side = 0; side < 2; ++side) {
            QSet<QString> expected;
            for (int a : s.controlAreas[side])
                if (isElector(a))
                    expected.insert(d.areas[a].id);
            for (int c : s.controlCities[side])
                if (d.cities[c].elector)
                    expected.insert(d.cities[c].id);
            QSet<QString> printed(s.electors[side].begin(), s.electors[side].end());
            const QString sid = sideId(side == 0 ? Side::Catholic : Side::Protestant);
            if (printed != expected) {
                QStringList e(expected.begin(), expected.end()), p(printed.begin(), printed.end());
                e.sort();
                p.sort();
                root["electors"][sid].error(
                    QStringLiteral("rules 5.141: printed electors [%1] do not match the "
                                   "electors this side controls [%2]")
                        .arg(p.join(QStringLiteral(", ")), e.join(QStringLiteral(", "))));
            }
        }

        // Stacks: 10.2 at most 8 units; 17.A.2 Imperial and Bavarian not together before C19;
        // 8.412 the counter mix is an absolute limit (also with every optional rule in use).
        const bool c19Played = s.removedCards.contains(d.card(QStringLiteral("C19")));
        QHash<QPair<int, int>, int> used, usedOptional;
        QHash<int, int> leaderUse;
        QList<QPair<const ScenarioStack*, JNode>> all;
        const auto stackNodes = root["stacks"].array();
        for (qsizetype i = 0; i < s.stacks.size() && i < stackNodes.size(); ++i)
            all.append({&s.stacks[i], stackNodes[i]});
        const auto deployNodes = root["cardDeployments"].array(false);
        for (qsizetype i = 0; i < s.deployments.size() && i < deployNodes.size(); ++i)
            all.append({&s.deployments[i], deployNodes[i]});
        for (const auto& [stp, node] : all) {
            const ScenarioStack& st = *stp;
            int units = 0;
            bool imperial = false, bavarian = false;
            for (const ScenarioUnits& u : st.units) {
                units += u.count + u.reduced;
                auto key = qMakePair(u.nationality, static_cast<int>(u.kind));
                usedOptional[key] += u.count + u.reduced;
                if (st.optionalRule.isEmpty())
                    used[key] += u.count + u.reduced;
                if (u.nationality >= 0) {
                    imperial |= d.nationalities[u.nationality].id == QLatin1String("imperial");
                    bavarian |= d.nationalities[u.nationality].id == QLatin1String("bavarian");
                }
            }
            for (int l : st.leaders) {
                ++leaderUse[l];
                if (d.leaders[l].nationality >= 0) {
                    imperial |= d.nationalities[d.leaders[l].nationality].id == QLatin1String("imperial");
                    bavarian |= d.nationalities[d.leaders[l].nationality].id == QLatin1String("bavarian");
                }
            }
            if (units > 8)
                node.error(QStringLiteral("rules 10.2: %1 units in one space (at most 8)").arg(units));
            if (imperial && bavarian && !c19Played)
                node.error(
                    QStringLiteral("rules 17.A.2: Imperial and Bavarian forces may not stack together"));
        }
        // Stacks placed only under an optional rule add to the base stacks in the same city.
        for (auto it = usedOptional.begin(); it != usedOptional.end(); ++it) {
            if (it.key().first < 0)
                continue;
            const UnitType* ut = d.unitType(it.key().first, static_cast<UnitKind>(it.key().second));
            if (!ut)
                continue;
            const QString what =
                QStringLiteral("%1 %2").arg(d.nationalities[it.key().first].id, unitKindId(ut->kind));
            int base = used.value(it.key());
            if (base > ut->count)
                root["stacks"].error(
                    QStringLiteral("rules 8.412: the setup needs %1 %2 units, the counter mix has %3")
                        .arg(base)
                        .arg(what)
                        .arg(ut->count));
            if (it.value() > ut->count + ut->optionalExtra)
                root["stacks"].error(
                    QStringLiteral(
                        "rules 8.412: with optional rules the setup needs %1 %2 units, the mix has %3")
                        .arg(it.value())
                        .arg(what)
                        .arg(ut->count + ut->optionalExtra));
        }
        for (auto it = leaderUse.begin(); it != leaderUse.end(); ++it)
            if (it.value() > 1)
                root["stacks"].error(QStringLiteral("leader '%1' is placed %2 times")
                                         .arg(d.leaders[it.key()].id)
                                         .arg(it.value()));
    }

    void computeFingerprint() {
        // Independent of formatting: hash each file's compact JSON, in a fixed order of names.
        std::sort(m_raw.begin(), m_raw.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
        QCryptographicHash h(QCryptographicHash::Sha256);
        for (const auto& [name, raw] : m_raw) {
            h.addData(name.toUtf8());
            h.addData(QByteArrayView("\0", 1));
            QJsonDocument doc = QJsonDocument::fromJson(raw);
            h.addData(doc.isNull() ? raw : doc.toJson(QJsonDocument::Compact));
            h.addData(QByteArrayView("\0", 1));
        }
        d.fingerprint = h.result().toHex();
    }
};

} // namespace

bool isValidProvenance(const QString& source) {
    static const QRegularExpression re(
        QStringLiteral("^(rules[ :] ?\\S.*|derived: \\S.*|outside: \\S.*|reconstructed(: \\S.*)?)$"));
    return re.match(source).hasMatch();
}

LoadResult loadGameData(const QString& dataDir) {
    LoadResult r;
    auto d = std::make_shared<GameData>();
    d->dataDir = dataDir;
    if (!QFileInfo(dataDir).isDir()) {
        r.errors.add(dataDir, {}, QStringLiteral("data directory does not exist"));
        return r;
    }
    Loader(dataDir, *d, r.errors).run();
    if (r.errors.isEmpty())
        r.data = std::move(d);
    return r;
}

} // namespace wp
