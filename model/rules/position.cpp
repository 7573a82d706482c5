#include "rules/position.h"

#include "data/jsonreader.h"
#include "rules/internal.h"
#include "rules/invariants.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonParseError>
#include <QSet>

#include <algorithm>
#include <cmath>
#include <utility>

namespace wp::rules {

namespace {

const QStringList kSections{
    "format",       "scenario",     "description", "options", "seed",    "turn",         "phase",
    "activeSide",   "roundsUsed",   "vp",          "tracks",  "markers", "aid",          "nationSides",
    "control",      "neutral",      "units",       "leaders", "hands",   "drawPiles",    "playedPiles",
    "removedCards", "eventsPlayed", "sieges",      "pillage", "revolts", "eventMarkers", "dice"};
// Written by stateToJson() for people and tools; ignored on load ("frame" and "gameOver" are checked).
const QStringList kReadOnly{"frame",     "frames",    "actor",    "prompt", "legal",
                            "handSizes", "pileSizes", "gameOver", "winner", "result"};

QString phaseId(Phase p) {
    switch (p) {
    case Phase::Wallenstein:
        return QStringLiteral("wallenstein");
    case Phase::Recovery:
        return QStringLiteral("recovery");
    case Phase::Draw:
        return QStringLiteral("draw");
    case Phase::Action:
        return QStringLiteral("action");
    case Phase::Pay:
        return QStringLiteral("pay");
    case Phase::End:
        return QStringLiteral("end");
    case Phase::Revolt:
        return QStringLiteral("revolt");
    case Phase::EndOfTurn:
        return QStringLiteral("end-of-turn");
    case Phase::GameOver:
        return QStringLiteral("game-over");
    }
    return {};
}

QString sideKey(int side) {
    return side == kCatholic ? QStringLiteral("catholic") : QStringLiteral("protestant");
}

QJsonValue sideValue(int side) {
    if (side == kCatholic || side == kProtestant)
        return sideKey(side);
    return QJsonValue(QJsonValue::Null);
}

QString statusId(LeaderStatus st) {
    switch (st) {
    case LeaderStatus::NotEntered:
        return QStringLiteral("not-entered");
    case LeaderStatus::InPlay:
        return QStringLiteral("in-play");
    case LeaderStatus::Dead:
        return QStringLiteral("dead");
    case LeaderStatus::Aside:
        return QStringLiteral("aside");
    case LeaderStatus::Removed:
        return QStringLiteral("removed");
    }
    return {};
}

// Builds a position, collecting every problem with its JSON path.
class Builder {
  public:
    Builder(const Engine& e, GameState& state, DataErrors& errs)
        : m_e(e), d(e.data()), s(state), m_errs(errs) {}

    bool build(const JNode& root, const PositionOptions& extra, Log* log);

  private:
    const Engine& m_e;
    const GameData& d;
    GameState& s;
    DataErrors& m_errs;

    int errors() const { return static_cast<int>(m_errs.size()); }

    // "catholic" / "protestant" (and "none" / null where allowed); -2 on error.
    int side(const JNode& n, bool allowNone) const {
        if (allowNone && n.value().isNull())
            return kNone;
        const QString v = n.str();
        if (v == QLatin1String("catholic"))
            return kCatholic;
        if (v == QLatin1String("protestant"))
            return kProtestant;
        if (allowNone && v == QLatin1String("none"))
            return kNone;
        if (!v.isEmpty() || n.value().isString())
            n.error(QStringLiteral("'%1' is not a side (catholic, protestant%2)")
                        .arg(v, allowNone ? QStringLiteral(", none") : QString()));
        return -2;
    }
    int city(const JNode& n) const {
        const QString v = n.str();
        const int c = d.city(v);
        if (c < 0 && n.value().isString())
            n.error(QStringLiteral("unknown city '%1'").arg(v));
        return c;
    }
    int area(const JNode& n) const {
        const QString v = n.str();
        const int a = d.area(v);
        if (a < 0 && n.value().isString())
            n.error(QStringLiteral("unknown Area '%1'").arg(v));
        return a;
    }
    int card(const JNode& n) const {
        const QString v = n.str();
        const int c = d.card(v);
        if (c < 0 && n.value().isString())
            n.error(QStringLiteral("unknown card '%1'").arg(v));
        return c;
    }
    // A piece's location: "city" or "box" (exactly one). Returns kPool on error.
    int16_t location(const JNode& n) const {
        const bool hasCity = n.has(QStringLiteral("city")), hasBox = n.has(QStringLiteral("box"));
        if (hasCity == hasBox) {
            n.error(QStringLiteral("needs exactly one of \"city\" and \"box\""));
            return kPool;
        }
        if (hasCity) {
            const int c = city(n[QStringLiteral("city")]);
            return c >= 0 ? static_cast<int16_t>(c) : kPool;
        }
        const JNode b = n[QStringLiteral("box")];
        const int bi = d.box(b.str());
        if (bi < 0) {
            if (b.value().isString())
                b.error(QStringLiteral("unknown box '%1'").arg(b.value().toString()));
            return kPool;
        }
        return static_cast<int16_t>(kBoxBase + bi);
    }
    bool insideOk(const JNode& n, int16_t loc, bool inside) const {
        if (inside && (!isCity(loc) || !d.cities[loc].fortress)) {
            n[QStringLiteral("inside")].error(
                QStringLiteral("%1 is no Fortress: nothing can be inside (11.23)").arg(cityName(d, loc)));
            return false;
        }
        return true;
    }
    // A {"catholic": x, "protestant": y} object.
    template <typename F> void perSide(const JNode& n, F f) const {
        if (n.isNull())
            return;
        n.object();
        n.checkKeys({"catholic", "protestant"});
        for (int sd : {kCatholic, kProtestant})
            if (n.has(sideKey(sd)))
                f(sd, n[sideKey(sd)]);
    }

    void readTurn(const JNode& root);
    void readTracks(const JNode& n);
    void readMarkers(const JNode& n);
    void readControl(const JNode& root);
    void readUnits(const JNode& n);
    void readLeaders(const JNode& n);
    void readCards(const JNode& root);
    void readCityMarkers(const JNode& root);
    void deriveElectors(bool majorityGiven, bool allGiven);
    bool m_majorityGiven = false, m_allGiven = false;
};

bool Builder::build(const JNode& root, const PositionOptions& extra, Log* log) {
    if (!root.isObject()) {
        root.error(QStringLiteral("expected a JSON object"));
        return false;
    }
    root.checkKeys(kSections + kReadOnly);
    if (root.has(QStringLiteral("format")))
        root[QStringLiteral("format")].integer(1, 1, 1);
    // A state written mid-decision (stateToJson) cannot be loaded: a position is the start of a card round.
    if (root.has(QStringLiteral("frame"))) {
        const QJsonObject f = root[QStringLiteral("frame")].value().toObject();
        if (f.value(QStringLiteral("kind")).toString() != QLatin1String("turn") ||
            f.value(QStringLiteral("phase")).toString() != QLatin1String("action"))
            root[QStringLiteral("frame")].error(
                QStringLiteral("this state was written during a '%1' decision; a position file describes the "
                               "start of a card round (frame kind 'turn', phase 'action')")
                    .arg(f.value(QStringLiteral("kind")).toString() +
                         (f.contains(QStringLiteral("phase"))
                              ? QLatin1Char(' ') + f.value(QStringLiteral("phase")).toString()
                              : QString())));
    }
    if (root[QStringLiteral("gameOver")].value().toBool())
        root[QStringLiteral("gameOver")].error(
            QStringLiteral("the game is over: there is no position to play"));

    const JNode scNode = root[QStringLiteral("scenario")];
    const QString scenario = scNode.str();
    if (scNode.value().isString() && !d.scenario(scenario)) {
        QStringList known;
        for (const Scenario& sc : d.scenarios)
            known << sc.id;
        scNode.error(QStringLiteral("unknown scenario '%1' (known: %2)").arg(scenario, known.join(", ")));
    }
    GameOptions options;
    for (const JNode& o : root[QStringLiteral("options")].array(false)) {
        QString err;
        if (!setOption(options, o.str(), &err) && o.value().isString())
            o.error(err);
    }
    for (const QString& o : extra.options) {
        QString err;
        if (!setOption(options, o, &err))
            m_errs.add(QStringLiteral("--option"), {}, err);
    }
    uint64_t seed = 1;
    if (root.has(QStringLiteral("seed"))) {
        const JNode n = root[QStringLiteral("seed")];
        const double v = n.value().toDouble(-1);
        if (!n.value().isDouble() || v < 0 || std::floor(v) != v || v > 9007199254740992.0)
            n.error(QStringLiteral("expected a whole number >= 0"));
        else
            seed = static_cast<uint64_t>(v);
    }
    if (extra.seed)
        seed = *extra.seed;
    if (errors())
        return false;
    QString err;
    if (!m_e.newGame(s, scenario, options, seed, &err, nullptr)) {
        scNode.error(err);
        return false;
    }

    readTurn(root);
    readTracks(root[QStringLiteral("tracks")]);
    readMarkers(root[QStringLiteral("markers")]);
    perSide(root[QStringLiteral("aid")], [&](int sd, const JNode& n) { s.aidSources[sd] = n.stringList(); });
    if (root.has(QStringLiteral("nationSides"))) {
        const JNode n = root[QStringLiteral("nationSides")];
        const QJsonObject o = n.object();
        for (auto it = o.begin(); it != o.end(); ++it) {
            const int nat = d.nationality(it.key());
            const JNode v = n[it.key()];
            if (nat < 0) {
                v.error(QStringLiteral("unknown nationality '%1'").arg(it.key()));
                continue;
            }
            const int sd = side(v, false);
            if (sd >= 0)
                s.nationSide[nat] = static_cast<int8_t>(sd);
        }
    }
    readControl(root);
    if (root.has(QStringLiteral("units")))
        readUnits(root[QStringLiteral("units")]);
    if (root.has(QStringLiteral("leaders")))
        readLeaders(root[QStringLiteral("leaders")]);
    readCards(root);
    readCityMarkers(root);
    if (root.has(QStringLiteral("eventMarkers"))) {
        const JNode n = root[QStringLiteral("eventMarkers")];
        s.markers.clear();
        const QJsonObject o = n.object();
        for (auto it = o.begin(); it != o.end(); ++it)
            s.markers.insert(it.key(), n[it.key()].integer(-1000000, 1000000));
    }
    for (const JNode& n : root[QStringLiteral("dice")].array(false))
        s.forcedDice.push_back(static_cast<int8_t>(n.integer(0, 9)));
    if (errors())
        return false;
    deriveElectors(m_majorityGiven, m_allGiven);

    // The position is the start of a card round of the active side (6.D).
    s.frames.clear();
    s.frames.push_back(TurnFrame{Phase::Action, 0});
    s.gameOver = false;
    s.winner = kNone;
    s.result.clear();

    for (const QString& broken : checkInvariants(m_e, s))
        root.error(QStringLiteral("the position breaks a rule: %1").arg(broken));
    if (errors())
        return false;
    if (log)
        log->push_back({QStringLiteral("Position on %1 (%2): turn %3, %4 to play, VP %5")
                            .arg(d.scenario(scenario)->name, root.file())
                            .arg(s.turn)
                            .arg(sideName(s.activeSide))
                            .arg(s.vp),
                        kNone});
    return true;
}

void Builder::readTurn(const JNode& root) {
    if (root.has(QStringLiteral("turn")))
        s.turn = static_cast<int8_t>(root[QStringLiteral("turn")].integer(s.firstTurn, s.lastTurn, s.turn));
    if (root.has(QStringLiteral("phase"))) {
        const JNode n = root[QStringLiteral("phase")];
        const QString p = n.str();
        if (n.value().isString() && p != QLatin1String("action"))
            n.error(QStringLiteral("phase '%1': a position file describes the start of a card round, so the "
                                   "phase is 'action'")
                        .arg(p));
    }
    if (root.has(QStringLiteral("activeSide"))) {
        const int sd = side(root[QStringLiteral("activeSide")], false);
        if (sd >= 0)
            s.activeSide = static_cast<int8_t>(sd);
    }
    if (root.has(QStringLiteral("roundsUsed"))) {
        const JNode n = root[QStringLiteral("roundsUsed")];
        s.roundsUsed[0] = s.roundsUsed[1] = 0;
        perSide(n, [&](int sd, const JNode& v) { s.roundsUsed[sd] = static_cast<int8_t>(v.integer(0, 6)); });
    } else {
        s.roundsUsed[kCatholic] = 0;
        s.roundsUsed[kProtestant] = s.activeSide == kCatholic ? 1 : 0;
    }
    const int p = s.roundsUsed[kProtestant], c = s.roundsUsed[kCatholic];
    if (s.activeSide == kProtestant ? p != c : p != c + 1)
        root[QStringLiteral("roundsUsed")].error(
            QStringLiteral(
                "6.D the Protestant plays first in each round: with %1 to play, rounds used must be "
                "%2 (found Catholic %3, Protestant %4)")
                .arg(sideName(s.activeSide), s.activeSide == kProtestant ? QStringLiteral("equal")
                                                                         : QStringLiteral("Protestant = "
                                                                                          "Catholic + 1"))
                .arg(c)
                .arg(p));
    if (root.has(QStringLiteral("vp")))
        s.vp = static_cast<int16_t>(root[QStringLiteral("vp")].integer(-20, 80, s.vp));
}

void Builder::readTracks(const JNode& n) {
    if (n.isNull())
        return;
    n.object();
    n.checkKeys({"wallenstein", "dutchWar", "aidPoints", "aidCardPlayed"});
    if (n.has(QStringLiteral("wallenstein")))
        s.wallensteinTrack = static_cast<int8_t>(n[QStringLiteral("wallenstein")].integer(0, 20));
    if (n.has(QStringLiteral("dutchWar")))
        s.dutchWar = static_cast<int8_t>(n[QStringLiteral("dutchWar")].integer(-3, 5)); // 9.31
    perSide(n[QStringLiteral("aidPoints")],
            [&](int sd, const JNode& v) { s.aidPoints[sd] = static_cast<int8_t>(v.integer(0, 99)); });
    perSide(n[QStringLiteral("aidCardPlayed")],
            [&](int sd, const JNode& v) { s.aidCardPlayed[sd] = v.boolean(); });
}

void Builder::readMarkers(const JNode& n) {
    if (n.isNull())
        return;
    n.object();
    n.checkKeys({"pope", "valTelline", "electorate", "swedishBase", "hungaryRebellion", "imperialBavarianBan",
                 "spinolaPenaltyDone", "interventionAdded", "apocalypseAdded", "warEntryThisTurn",
                 "electorAward", "warEntered", "wallenstein", "spinolaInUp", "dutchWarVpAwarded",
                 "dutchAidModifier"});
    auto flag = [&](const char* key, bool& out) {
        if (n.has(QLatin1String(key)))
            out = n[QLatin1String(key)].boolean(out);
    };
    if (n.has(QStringLiteral("pope")))
        s.pope = n[QStringLiteral("pope")].str();
    if (n.has(QStringLiteral("valTelline"))) {
        const JNode v = n[QStringLiteral("valTelline")];
        const QString t = v.str();
        if (t != QLatin1String("open") && t != QLatin1String("closed") && v.value().isString())
            v.error(QStringLiteral("'%1': expected open or closed").arg(t));
        s.valTellineOpen = t != QLatin1String("closed");
    }
    if (n.has(QStringLiteral("electorate"))) {
        const JNode v = n[QStringLiteral("electorate")];
        const int a = area(v);
        if (a >= 0 && d.areas[a].id != QLatin1String("lower-palatinate") &&
            d.areas[a].id != QLatin1String("bavaria"))
            v.error(QStringLiteral("5.142 the Electorate is the Lower Palatinate or Bavaria"));
        else if (a >= 0)
            s.electorate = static_cast<int8_t>(a);
    }
    if (n.has(QStringLiteral("swedishBase"))) {
        const JNode v = n[QStringLiteral("swedishBase")];
        s.swedishBase = v.isNull() ? int16_t(-1) : static_cast<int16_t>(city(v));
    }
    flag("hungaryRebellion", s.hungaryRebellion);
    flag("imperialBavarianBan", s.imperialBavarianBan);
    flag("spinolaPenaltyDone", s.spinolaPenaltyDone);
    flag("interventionAdded", s.interventionAdded);
    flag("apocalypseAdded", s.apocalypseAdded);
    flag("warEntryThisTurn", s.warEntryThisTurn);
    flag("spinolaInUp", s.spinolaInUp);
    if (n.has(QStringLiteral("dutchWarVpAwarded"))) {
        // 16.131: the boxes whose VP award was given, as in the scenario files (2, 4, -3)
        s.dutchWarVpAwarded = 0;
        for (const JNode& v : n[QStringLiteral("dutchWarVpAwarded")].array()) {
            const int box = v.integer(-3, 4);
            if (box != 2 && box != 4 && box != -3 && v.value().isDouble())
                v.error(QStringLiteral("16.131 the Dutch War boxes with a VP award are 2, 4 and -3"));
            s.dutchWarVpAwarded |= static_cast<int8_t>(box == 2 ? 1 : box == 4 ? 2 : box == -3 ? 4 : 0);
        }
    }
    if (n.has(QStringLiteral("dutchAidModifier")))
        s.dutchAidModifier = static_cast<int8_t>(n[QStringLiteral("dutchAidModifier")].integer(-3, 3));
    if (n.has(QStringLiteral("electorAward"))) {
        const JNode a = n[QStringLiteral("electorAward")];
        a.object();
        a.checkKeys({"majority", "all"});
        if (a.has(QStringLiteral("majority"))) {
            const int sd = side(a[QStringLiteral("majority")], true);
            if (sd >= -1)
                s.electorMajorityHolder = static_cast<int8_t>(sd);
            m_majorityGiven = true;
        }
        if (a.has(QStringLiteral("all"))) {
            const int sd = side(a[QStringLiteral("all")], true);
            if (sd >= -1)
                s.electorAllHolder = static_cast<int8_t>(sd);
            m_allGiven = true;
        }
    }
    if (n.has(QStringLiteral("warEntered"))) {
        const JNode w = n[QStringLiteral("warEntered")];
        w.object();
        w.checkKeys({"denmark", "sweden", "france"});
        auto wflag = [&](const char* key, bool& out) {
            if (w.has(QLatin1String(key)))
                out = w[QLatin1String(key)].boolean(out);
        };
        wflag("denmark", s.denmarkInWar);
        wflag("sweden", s.swedenInWar);
        wflag("france", s.franceInWar);
    }
    if (n.has(QStringLiteral("wallenstein"))) {
        const JNode w = n[QStringLiteral("wallenstein")];
        w.object();
        w.checkKeys({"dismissed", "recalled"});
        bool dismissed = s.wallensteinUses & 1, recalled = s.wallensteinUses & 2;
        if (w.has(QStringLiteral("dismissed")))
            dismissed = w[QStringLiteral("dismissed")].boolean();
        if (w.has(QStringLiteral("recalled")))
            recalled = w[QStringLiteral("recalled")].boolean();
        s.wallensteinUses = static_cast<uint8_t>((dismissed ? 1 : 0) | (recalled ? 2 : 0));
    }
}

void Builder::readControl(const JNode& root) {
    if (root.has(QStringLiteral("control"))) {
        const JNode c = root[QStringLiteral("control")];
        c.object();
        c.checkKeys({"areas", "cities"});
        if (c.has(QStringLiteral("areas"))) {
            const JNode n = c[QStringLiteral("areas")];
            for (AreaState& a : s.areas)
                a.control = kNone;
            const QJsonObject o = n.object();
            for (auto it = o.begin(); it != o.end(); ++it) {
                const int a = d.area(it.key());
                if (a < 0) {
                    n[it.key()].error(QStringLiteral("unknown Area '%1'").arg(it.key()));
                    continue;
                }
                const int sd = side(n[it.key()], true);
                if (sd >= -1)
                    s.areas[a].control = static_cast<int8_t>(sd);
            }
        }
        if (c.has(QStringLiteral("cities"))) {
            const JNode n = c[QStringLiteral("cities")];
            for (CityState& cs : s.cities)
                cs.marker = kNone;
            const QJsonObject o = n.object();
            for (auto it = o.begin(); it != o.end(); ++it) {
                const int ci = d.city(it.key());
                if (ci < 0) {
                    n[it.key()].error(QStringLiteral("unknown city '%1'").arg(it.key()));
                    continue;
                }
                const int sd = side(n[it.key()], true);
                if (sd >= -1)
                    s.cities[ci].marker = static_cast<int8_t>(sd);
            }
        }
    }
    if (root.has(QStringLiteral("neutral"))) {
        const JNode n = root[QStringLiteral("neutral")];
        for (AreaState& a : s.areas)
            a.neutral = false;
        for (const JNode& v : n.array()) {
            const int a = area(v);
            if (a >= 0)
                s.areas[a].neutral = true;
        }
    }
    // As newGame: a city marker that the Area's Control Box already implies is not kept (3.13).
    for (qsizetype ci = 0; ci < d.cities.size(); ++ci) {
        const City& ct = d.cities[ci];
        if (!ct.independent && ct.area >= 0 && s.cities[ci].marker == s.areas[ct.area].control)
            s.cities[ci].marker = kNone;
    }
}

void Builder::readUnits(const JNode& n) {
    for (UnitState& u : s.units) {
        u.loc = kPool;
        u.steps = 0;
        u.flags = 0;
    }
    const QList<JNode> entries = n.array();
    std::vector<bool> placed(s.units.size(), false);
    // Entries naming a counter ("id": "u12") first, so that the others cannot take it.
    for (int pass = 0; pass < 2; ++pass) {
        for (const JNode& e : entries) {
            const bool named = e.has(QStringLiteral("id"));
            if (named != (pass == 0))
                continue;
            e.object();
            e.checkKeys(
                {"id", "nationality", "type", "count", "steps", "city", "box", "inside", "unpaid", "status"});
            int count = 1;
            if (e.has(QStringLiteral("count")))
                count = e[QStringLiteral("count")].integer(1, 20, 1);
            int nat = -1;
            std::optional<UnitKind> kind;
            if (e.has(QStringLiteral("nationality"))) {
                const JNode v = e[QStringLiteral("nationality")];
                nat = d.nationality(v.str());
                if (nat < 0 && v.value().isString())
                    v.error(QStringLiteral("unknown nationality '%1'").arg(v.value().toString()));
                if (nat < 0)
                    continue;
            }
            if (e.has(QStringLiteral("type"))) {
                const JNode v = e[QStringLiteral("type")];
                kind = unitKindFromId(v.str());
                if (!kind && v.value().isString())
                    v.error(QStringLiteral("unknown unit type '%1' (veteran, mercenary, militia)")
                                .arg(v.value().toString()));
                if (!kind)
                    continue;
            }
            const QString status = e[QStringLiteral("status")].optStr(QStringLiteral("map"));
            if (status != QLatin1String("map") && status != QLatin1String("removed")) {
                e[QStringLiteral("status")].error(
                    QStringLiteral("'%1': expected map or removed (permanently out of the game)")
                        .arg(status));
                continue;
            }
            const bool removed = status == QLatin1String("removed");
            int16_t loc = kRemoved;
            if (!removed) {
                loc = location(e);
                if (loc == kPool)
                    continue;
            }
            const int steps = removed ? 0 : e[QStringLiteral("steps")].optInteger(1, 2, 2);
            const bool inside = e[QStringLiteral("inside")].optBoolean(false);
            if (!removed && !insideOk(e, loc, inside))
                continue;
            const bool unpaid = e[QStringLiteral("unpaid")].optBoolean(false);
            std::vector<int> chosen;
            if (named) {
                const JNode idn = e[QStringLiteral("id")];
                const QString id = idn.str();
                bool ok = id.startsWith(QLatin1Char('u'));
                const int u = ok ? id.mid(1).toInt(&ok) : -1;
                if (!ok || u < 0 || u >= static_cast<int>(s.units.size())) {
                    idn.error(QStringLiteral("'%1' is no counter (u0..u%2)").arg(id).arg(s.units.size() - 1));
                    continue;
                }
                if (count != 1) {
                    e[QStringLiteral("count")].error(QStringLiteral("an entry naming a counter places one"));
                    continue;
                }
                const UnitType& t = d.unitTypes[s.units[u].type];
                if ((nat >= 0 && t.nationality != nat) || (kind && t.kind != *kind)) {
                    idn.error(QStringLiteral("%1 is a %2 %3 counter")
                                  .arg(id, d.nationalities[t.nationality].id, unitKindId(t.kind)));
                    continue;
                }
                if (placed[u]) {
                    idn.error(QStringLiteral("%1 is placed twice").arg(id));
                    continue;
                }
                chosen.push_back(u);
            } else {
                if (nat < 0 || !kind) {
                    e.error(QStringLiteral("needs \"nationality\" and \"type\" (or the counter's \"id\")"));
                    continue;
                }
                int mix = 0;
                for (size_t u = 0; u < s.units.size() && static_cast<int>(chosen.size()) < count; ++u) {
                    const UnitType& t = d.unitTypes[s.units[u].type];
                    if (t.nationality != nat || t.kind != *kind)
                        continue;
                    ++mix;
                    if (!placed[u])
                        chosen.push_back(static_cast<int>(u));
                }
                if (static_cast<int>(chosen.size()) < count) {
                    int total = 0;
                    for (const UnitState& u : s.units)
                        total += d.unitTypes[u.type].nationality == nat && d.unitTypes[u.type].kind == *kind;
                    e.error(
                        QStringLiteral("8.412 the counter mix has only %1 %2 %3 counter%4; this entry would "
                                       "need %5 more")
                            .arg(total)
                            .arg(d.nationalities[nat].id, unitKindId(*kind), total == 1 ? "" : "s")
                            .arg(count - static_cast<int>(chosen.size())));
                    Q_UNUSED(mix);
                    continue;
                }
            }
            for (int u : chosen) {
                placed[u] = true;
                UnitState& us = s.units[u];
                us.loc = loc;
                us.steps = static_cast<uint8_t>(steps);
                us.flags = static_cast<uint8_t>((inside ? kInside : 0) | (unpaid ? kUnpaid : 0));
            }
        }
    }
}

void Builder::readLeaders(const JNode& n) {
    for (LeaderState& l : s.leaders)
        l = LeaderState{};
    std::vector<bool> seen(static_cast<size_t>(d.leaders.size()), false);
    for (const JNode& e : n.array()) {
        e.object();
        e.checkKeys({"id", "city", "box", "inside", "status"});
        const JNode idn = e[QStringLiteral("id")];
        const int l = d.leader(idn.str());
        if (l < 0) {
            if (idn.value().isString())
                idn.error(QStringLiteral("unknown leader '%1'").arg(idn.value().toString()));
            continue;
        }
        if (seen[l]) {
            idn.error(QStringLiteral("leader %1 is listed twice").arg(d.leaders[l].id));
            continue;
        }
        seen[l] = true;
        const QString st = e[QStringLiteral("status")].optStr(QStringLiteral("in-play"));
        LeaderState ls;
        if (st == QLatin1String("in-play")) {
            ls.status = LeaderStatus::InPlay;
            ls.loc = location(e);
            if (ls.loc == kPool)
                continue;
            const bool inside = e[QStringLiteral("inside")].optBoolean(false);
            if (!insideOk(e, ls.loc, inside))
                continue;
            ls.flags = inside ? kInside : 0;
        } else {
            static const QStringList others{"not-entered", "dead", "aside", "removed"};
            if (!others.contains(st)) {
                e[QStringLiteral("status")].error(
                    QStringLiteral("'%1': expected in-play, not-entered, dead, aside or removed").arg(st));
                continue;
            }
            if (e.has(QStringLiteral("city")) || e.has(QStringLiteral("box")) ||
                e.has(QStringLiteral("inside"))) {
                e.error(QStringLiteral("a leader that is %1 has no location").arg(st));
                continue;
            }
            ls.status = st == QLatin1String("not-entered") ? LeaderStatus::NotEntered
                        : st == QLatin1String("dead")      ? LeaderStatus::Dead
                        : st == QLatin1String("aside")     ? LeaderStatus::Aside
                                                           : LeaderStatus::Removed;
            ls.loc = ls.status == LeaderStatus::NotEntered ? kPool
                     : ls.status == LeaderStatus::Aside    ? kAside
                                                           : kRemoved;
        }
        s.leaders[l] = ls;
    }
}

void Builder::readCards(const JNode& root) {
    struct Placement {
        CardPlace place;
        int side;
        QString path;
    };
    QHash<int, Placement> given;      // card -> explicit place
    std::vector<int16_t> lists[3][2]; // hand, draw (top first as written), played
    bool explicitList[3][2] = {};
    const char* keys[3] = {"hands", "drawPiles", "playedPiles"};
    const CardPlace places[3] = {CardPlace::Hand, CardPlace::Unplayed, CardPlace::Played};
    auto take = [&](const JNode& v, CardPlace place, int sd) -> int {
        const int c = card(v);
        if (c < 0)
            return -1;
        if (given.contains(c)) {
            v.error(QStringLiteral("%1 is already placed at %2").arg(d.cards[c].id, given[c].path));
            return -1;
        }
        if (sd >= 0 && sideIndex(d.cards[c].side) != sd) {
            v.error(
                QStringLiteral("%1 is a %2 card").arg(d.cards[c].id, sideKey(sideIndex(d.cards[c].side))));
            return -1;
        }
        given.insert(c, Placement{place, sd, v.path()});
        return c;
    };
    for (int k = 0; k < 3; ++k)
        perSide(root[QLatin1String(keys[k])], [&](int sd, const JNode& n) {
            explicitList[k][sd] = true;
            for (const JNode& v : n.array()) {
                const int c = take(v, places[k], sd);
                if (c >= 0)
                    lists[k][sd].push_back(static_cast<int16_t>(c));
            }
        });
    std::vector<int> removed;
    for (const JNode& v : root[QStringLiteral("removedCards")].array(false)) {
        const int c = take(v, CardPlace::Removed, -1);
        if (c >= 0)
            removed.push_back(c);
    }
    for (int sd : {kCatholic, kProtestant})
        if (lists[0][sd].size() > 7)
            root[QStringLiteral("hands")][sideKey(sd)].error(
                QStringLiteral("6.C a hand holds at most 7 cards (found %1)").arg(lists[0][sd].size()));
    if (errors())
        return;

    // Cards the scenario put somewhere that the file now replaces, and that the file does not place:
    // back to the Unplayed pile (top), else to the Played pile, else out of the game.
    for (int sd : {kCatholic, kProtestant}) {
        auto keep = [&](const std::vector<int16_t>& v) {
            std::vector<int16_t> out;
            for (int16_t c : v)
                if (!given.contains(c))
                    out.push_back(c);
            return out;
        };
        std::vector<int16_t> hand = keep(s.hand[sd]), draw = keep(s.drawPile[sd]),
                             played = keep(s.playedPile[sd]);
        std::vector<int16_t> displaced;
        if (explicitList[0][sd]) {
            displaced.insert(displaced.end(), hand.begin(), hand.end());
            hand = lists[0][sd];
        }
        if (explicitList[1][sd]) {
            for (int16_t c : draw)
                displaced.push_back(c);
            draw.assign(lists[1][sd].rbegin(), lists[1][sd].rend()); // the first listed is drawn first
        } else {
            for (auto it = displaced.rbegin(); it != displaced.rend(); ++it)
                draw.push_back(*it);
            displaced.clear();
        }
        if (explicitList[2][sd]) {
            for (int16_t c : played)
                displaced.push_back(c);
            played = lists[2][sd];
        } else {
            played.insert(played.end(), displaced.begin(), displaced.end());
            displaced.clear();
        }
        for (int16_t c : displaced)
            s.cardPlace[c] = CardPlace::Removed;
        s.hand[sd] = hand;
        s.drawPile[sd] = draw;
        s.playedPile[sd] = played;
        for (int16_t c : hand)
            s.cardPlace[c] = CardPlace::Hand;
        for (int16_t c : draw)
            s.cardPlace[c] = CardPlace::Unplayed;
        for (int16_t c : played)
            s.cardPlace[c] = CardPlace::Played;
    }
    for (int c : removed)
        s.cardPlace[c] = CardPlace::Removed;
    if (root.has(QStringLiteral("eventsPlayed"))) {
        std::fill(s.eventPlayed.begin(), s.eventPlayed.end(), false);
        for (const JNode& v : root[QStringLiteral("eventsPlayed")].array()) {
            const int c = card(v);
            if (c >= 0)
                s.eventPlayed[c] = true;
        }
    }
}

void Builder::readCityMarkers(const JNode& root) {
    if (root.has(QStringLiteral("pillage"))) {
        const JNode n = root[QStringLiteral("pillage")];
        for (CityState& cs : s.cities)
            cs.pillage = 0;
        const QJsonObject o = n.object();
        for (auto it = o.begin(); it != o.end(); ++it) {
            const int ci = d.city(it.key());
            if (ci < 0)
                n[it.key()].error(QStringLiteral("unknown city '%1'").arg(it.key()));
            else
                s.cities[ci].pillage = static_cast<int8_t>(n[it.key()].integer(0, 2));
        }
    }
    if (root.has(QStringLiteral("revolts"))) {
        for (CityState& cs : s.cities)
            cs.revolt = false;
        for (const JNode& v : root[QStringLiteral("revolts")].array()) {
            const int ci = city(v);
            if (ci >= 0)
                s.cities[ci].revolt = true;
        }
    }
    if (root.has(QStringLiteral("sieges"))) {
        for (CityState& cs : s.cities) {
            cs.siege = 0;
            cs.sieger = kNone;
        }
        for (const JNode& e : root[QStringLiteral("sieges")].array()) {
            e.object();
            e.checkKeys({"city", "side", "continued"});
            const int ci = city(e[QStringLiteral("city")]);
            const int sd = side(e[QStringLiteral("side")], false);
            const int continued = e[QStringLiteral("continued")].optInteger(0, 3, 0);
            if (ci < 0 || sd < 0)
                continue;
            if (!d.cities[ci].fortress) {
                e[QStringLiteral("city")].error(
                    QStringLiteral("13.11 %1 is no Fortress").arg(d.cities[ci].id));
                continue;
            }
            if (s.cities[ci].siege > 0) {
                e[QStringLiteral("city")].error(QStringLiteral("%1 is besieged twice").arg(d.cities[ci].id));
                continue;
            }
            if (!anyUnitsOutside(s, ci, sd, d)) {
                e.error(QStringLiteral("13.13 no %1 unit stands outside %2 to besiege it")
                            .arg(sideKey(sd), d.cities[ci].id));
                continue;
            }
            s.cities[ci].siege = static_cast<int8_t>(1 + continued);
            s.cities[ci].sieger = static_cast<int8_t>(sd);
        }
    }
}

void Builder::deriveElectors(bool majorityGiven, bool allGiven) {
    // 5.141: an award stands with the side that holds the condition; history the file does not give is
    // taken from the present control.
    for (int sd : {kCatholic, kProtestant}) {
        const int n = electorsControlled(d, s, sd);
        if (n >= 4 && !majorityGiven)
            s.electorMajorityHolder = static_cast<int8_t>(sd);
        if (n >= 7 && !allGiven)
            s.electorAllHolder = static_cast<int8_t>(sd);
    }
}

// ---- writing

QJsonArray cardList(const GameData& d, const std::vector<int16_t>& v, bool reverse = false) {
    QJsonArray a;
    if (reverse)
        for (auto it = v.rbegin(); it != v.rend(); ++it)
            a.append(d.cards[*it].id);
    else
        for (int16_t c : v)
            a.append(d.cards[c].id);
    return a;
}

QJsonValue locValue(const GameData& d, int loc) {
    if (isCity(static_cast<int16_t>(loc)) && loc < d.cities.size())
        return d.cities[loc].id;
    if (isBox(static_cast<int16_t>(loc)) && loc - kBoxBase < d.boxes.size())
        return d.boxes[loc - kBoxBase].id;
    return QJsonValue(QJsonValue::Null);
}

void putLoc(const GameData& d, QJsonObject& o, int loc) {
    o.insert(isBox(static_cast<int16_t>(loc)) ? QStringLiteral("box") : QStringLiteral("city"),
             locValue(d, loc));
}

QJsonArray unitIds(const std::vector<int16_t>& v) {
    QJsonArray a;
    for (int16_t u : v)
        a.append(QStringLiteral("u%1").arg(u));
    return a;
}

QJsonArray leaderIds(const GameData& d, const std::vector<int16_t>& v) {
    QJsonArray a;
    for (int16_t l : v)
        a.append(l >= 0 && l < d.leaders.size() ? QJsonValue(d.leaders[l].id) : QJsonValue(l));
    return a;
}

QJsonObject frameJson(const Engine& e, const GameState& s, const Frame& f) {
    const GameData& d = e.data();
    QJsonObject o;
    if (const auto* t = std::get_if<TurnFrame>(&f)) {
        o.insert("kind", "turn");
        o.insert("phase", phaseId(t->phase));
        o.insert("step", t->step);
    } else if (const auto* a = std::get_if<ActivationFrame>(&f)) {
        o.insert("kind", "activation");
        o.insert("side", sideValue(a->side));
        o.insert("leader", a->leader >= 0 ? QJsonValue(d.leaders[a->leader].id) : QJsonValue());
        o.insert("freeAction", a->freeAction);
        o.insert("card", a->card >= 0 ? QJsonValue(d.cards[a->card].id) : QJsonValue());
        o.insert("at", locValue(d, a->at));
        o.insert("cameFrom", locValue(d, a->cameFrom));
        o.insert("mpUsed", a->mpUsed);
        o.insert("leadership", a->leadership);
        o.insert("units", unitIds(a->units));
        o.insert("leaders", leaderIds(d, a->leaders));
        o.insert("reactionCity", locValue(d, a->reactionCity));
        o.insert("mustStop", a->mustStop);
        o.insert("combatDone", a->combatDone);
    } else if (const auto* c = std::get_if<CombatFrame>(&f)) {
        o.insert("kind", "combat");
        o.insert("city", locValue(d, c->city));
        o.insert("attacker", sideValue(c->attacker));
        o.insert("step", c->step);
        o.insert("sally", c->sally);
        o.insert("relief", c->relief);
        o.insert("attackUnits", unitIds(c->attackUnits));
        o.insert("defendUnits", unitIds(c->defendUnits));
        o.insert("attackLeaders", leaderIds(d, c->attackLeaders));
        o.insert("defendLeaders", leaderIds(d, c->defendLeaders));
        QJsonObject cards, rolls, losses;
        for (int sd : {kCatholic, kProtestant}) {
            cards.insert(sideKey(sd), cardList(d, c->cards[sd]));
            rolls.insert(sideKey(sd), c->roll[sd]);
            losses.insert(sideKey(sd), c->lossNumber[sd]);
        }
        o.insert("cards", cards);
        o.insert("rolls", rolls);
        o.insert("lossNumbers", losses);
        o.insert("winner", sideValue(c->winner));
    } else if (const auto* g = std::get_if<SiegeFrame>(&f)) {
        o.insert("kind", "siege");
        o.insert("city", locValue(d, g->city));
        o.insert("side", sideValue(g->side));
        o.insert("step", g->step);
        o.insert("endPhase", g->endPhase);
    } else {
        const auto& ch = std::get<ChoiceFrame>(f);
        o.insert("kind", "choice");
        o.insert("actor", sideValue(ch.actor));
        o.insert("purpose", ch.purpose);
        QJsonArray opts;
        for (int16_t x : ch.options)
            opts.append(x);
        o.insert("options", opts);
        o.insert("count", ch.count);
        o.insert("data", ch.data);
    }
    Q_UNUSED(s);
    return o;
}

} // namespace

bool positionFromJson(const Engine& engine, const QJsonObject& root, const QString& name, GameState& out,
                      QString* error, const PositionOptions& extra, Log* log) {
    DataErrors errs;
    GameState s;
    Builder b(engine, s, errs);
    const bool ok = b.build(JNode(root, name, QStringLiteral("$"), &errs), extra, log) && errs.isEmpty();
    if (!ok) {
        if (error)
            *error =
                errs.isEmpty() ? QStringLiteral("%1: cannot build the position").arg(name) : errs.joined();
        return false;
    }
    out = std::move(s);
    return true;
}

bool loadPosition(const Engine& engine, const QString& file, GameState& out, QString* error,
                  const PositionOptions& extra, Log* log) {
    QFile f(file);
    if (!f.open(QIODevice::ReadOnly)) {
        if (error)
            *error = QStringLiteral("%1: cannot read the position file: %2").arg(file, f.errorString());
        return false;
    }
    const QByteArray raw = f.readAll();
    QJsonParseError pe;
    const QJsonDocument doc = QJsonDocument::fromJson(raw, &pe);
    if (pe.error != QJsonParseError::NoError) {
        int line = 1, col = 1;
        for (int i = 0; i < pe.offset && i < raw.size(); ++i) {
            if (raw[i] == '\n') {
                ++line;
                col = 1;
            } else {
                ++col;
            }
        }
        if (error)
            *error = QStringLiteral("%1: line %2, column %3: malformed JSON: %4")
                         .arg(file)
                         .arg(line)
                         .arg(col)
                         .arg(pe.errorString());
        return false;
    }
    if (!doc.isObject()) {
        if (error)
            *error = QStringLiteral("%1: $: expected a JSON object at the top level").arg(file);
        return false;
    }
    return positionFromJson(engine, doc.object(), file, out, error, extra, log);
}

QJsonObject stateToJson(const Engine& engine, const GameState& s) {
    const GameData& d = engine.data();
    QJsonObject o;
    o.insert("format", 1);
    o.insert("scenario", s.scenario);
    o.insert("options", QJsonArray::fromStringList(optionList(s.options)));
    o.insert("turn", s.turn);
    const auto* turn = s.frames.empty() ? nullptr : std::get_if<TurnFrame>(&s.frames.front());
    o.insert("phase", turn ? phaseId(turn->phase) : QString());
    o.insert("activeSide", sideValue(s.activeSide));
    o.insert("roundsUsed",
             QJsonObject{{"catholic", s.roundsUsed[kCatholic]}, {"protestant", s.roundsUsed[kProtestant]}});
    o.insert("vp", s.vp);
    o.insert(
        "tracks",
        QJsonObject{{"wallenstein", s.wallensteinTrack},
                    {"dutchWar", s.dutchWar},
                    {"aidPoints", QJsonObject{{"catholic", s.aidPoints[0]}, {"protestant", s.aidPoints[1]}}},
                    {"aidCardPlayed",
                     QJsonObject{{"catholic", s.aidCardPlayed[0]}, {"protestant", s.aidCardPlayed[1]}}}});
    QJsonArray dutchAwards;
    for (const auto& [bit, box] : {std::pair{1, 2}, std::pair{2, 4}, std::pair{4, -3}})
        if (s.dutchWarVpAwarded & bit)
            dutchAwards.append(box);
    QJsonObject markers{
        {"pope", s.pope},
        {"valTelline", s.valTellineOpen ? "open" : "closed"},
        {"electorate", s.electorate >= 0 ? QJsonValue(d.areas[s.electorate].id) : QJsonValue()},
        {"swedishBase", s.swedishBase >= 0 ? QJsonValue(d.cities[s.swedishBase].id) : QJsonValue()},
        {"hungaryRebellion", s.hungaryRebellion},
        {"imperialBavarianBan", s.imperialBavarianBan},
        {"spinolaPenaltyDone", s.spinolaPenaltyDone},
        {"interventionAdded", s.interventionAdded},
        {"apocalypseAdded", s.apocalypseAdded},
        {"warEntryThisTurn", s.warEntryThisTurn},
        {"spinolaInUp", s.spinolaInUp},
        {"dutchWarVpAwarded", dutchAwards},
        {"dutchAidModifier", s.dutchAidModifier},
        {"electorAward", QJsonObject{{"majority", sideValue(s.electorMajorityHolder)},
                                     {"all", sideValue(s.electorAllHolder)}}},
        {"warEntered",
         QJsonObject{{"denmark", s.denmarkInWar}, {"sweden", s.swedenInWar}, {"france", s.franceInWar}}},
        {"wallenstein",
         QJsonObject{{"dismissed", bool(s.wallensteinUses & 1)}, {"recalled", bool(s.wallensteinUses & 2)}}}};
    o.insert("markers", markers);
    o.insert("aid", QJsonObject{{"catholic", QJsonArray::fromStringList(s.aidSources[0])},
                                {"protestant", QJsonArray::fromStringList(s.aidSources[1])}});
    QJsonObject nations;
    for (qsizetype n = 0; n < d.nationalities.size(); ++n)
        nations.insert(d.nationalities[n].id, sideValue(s.nationSide[n]));
    o.insert("nationSides", nations);

    QJsonObject areas, cities;
    QJsonArray neutral;
    for (qsizetype a = 0; a < d.areas.size(); ++a) {
        areas.insert(d.areas[a].id,
                     s.areas[a].control == kNone ? QJsonValue("none") : sideValue(s.areas[a].control));
        if (s.areas[a].neutral)
            neutral.append(d.areas[a].id);
    }
    QJsonObject pillage;
    QJsonArray revolts, sieges;
    for (qsizetype c = 0; c < d.cities.size(); ++c) {
        const CityState& cs = s.cities[c];
        if (cs.marker != kNone)
            cities.insert(d.cities[c].id, sideValue(cs.marker));
        if (cs.pillage)
            pillage.insert(d.cities[c].id, cs.pillage);
        if (cs.revolt)
            revolts.append(d.cities[c].id);
        if (cs.siege > 0)
            sieges.append(QJsonObject{
                {"city", d.cities[c].id}, {"side", sideValue(cs.sieger)}, {"continued", cs.siege - 1}});
    }
    o.insert("control", QJsonObject{{"areas", areas}, {"cities", cities}});
    o.insert("neutral", neutral);

    QJsonArray units;
    for (size_t u = 0; u < s.units.size(); ++u) {
        const UnitState& us = s.units[u];
        if (us.loc == kPool)
            continue;
        const UnitType& t = d.unitTypes[us.type];
        QJsonObject e{{"id", QStringLiteral("u%1").arg(u)},
                      {"nationality", d.nationalities[t.nationality].id},
                      {"type", unitKindId(t.kind)}};
        if (us.loc == kRemoved) {
            e.insert("status", "removed");
        } else {
            putLoc(d, e, us.loc);
            e.insert("steps", us.steps);
            if (us.flags & kInside)
                e.insert("inside", true);
            if (us.flags & kUnpaid)
                e.insert("unpaid", true);
        }
        units.append(e);
    }
    o.insert("units", units);
    QJsonArray leaders;
    for (qsizetype l = 0; l < d.leaders.size(); ++l) {
        const LeaderState& ls = s.leaders[l];
        if (ls.status == LeaderStatus::NotEntered)
            continue;
        QJsonObject e{{"id", d.leaders[l].id}};
        if (ls.status == LeaderStatus::InPlay) {
            putLoc(d, e, ls.loc);
            if (ls.flags & kInside)
                e.insert("inside", true);
        } else {
            e.insert("status", statusId(ls.status));
        }
        leaders.append(e);
    }
    o.insert("leaders", leaders);

    o.insert("hands",
             QJsonObject{{"catholic", cardList(d, s.hand[0])}, {"protestant", cardList(d, s.hand[1])}});
    o.insert("drawPiles", QJsonObject{{"catholic", cardList(d, s.drawPile[0], true)},
                                      {"protestant", cardList(d, s.drawPile[1], true)}});
    o.insert("playedPiles", QJsonObject{{"catholic", cardList(d, s.playedPile[0])},
                                        {"protestant", cardList(d, s.playedPile[1])}});
    QJsonArray removed, events;
    int later = 0;
    for (qsizetype c = 0; c < d.cards.size(); ++c) {
        if (s.cardPlace[c] == CardPlace::Removed)
            removed.append(d.cards[c].id);
        later += s.cardPlace[c] == CardPlace::Later;
        if (s.eventPlayed[c])
            events.append(d.cards[c].id);
    }
    o.insert("removedCards", removed);
    o.insert("eventsPlayed", events);
    o.insert("sieges", sieges);
    o.insert("pillage", pillage);
    o.insert("revolts", revolts);
    QJsonObject eventMarkers;
    for (auto it = s.markers.begin(); it != s.markers.end(); ++it)
        eventMarkers.insert(it.key(), it.value());
    o.insert("eventMarkers", eventMarkers);
    if (!s.forcedDice.empty()) {
        QJsonArray dice;
        for (int8_t x : s.forcedDice)
            dice.append(x);
        o.insert("dice", dice);
    }

    // read-only
    o.insert("handSizes", QJsonObject{{"catholic", static_cast<int>(s.hand[0].size())},
                                      {"protestant", static_cast<int>(s.hand[1].size())}});
    o.insert("pileSizes",
             QJsonObject{{"unplayed", QJsonObject{{"catholic", static_cast<int>(s.drawPile[0].size())},
                                                  {"protestant", static_cast<int>(s.drawPile[1].size())}}},
                         {"played", QJsonObject{{"catholic", static_cast<int>(s.playedPile[0].size())},
                                                {"protestant", static_cast<int>(s.playedPile[1].size())}}},
                         {"later", later},
                         {"removed", static_cast<int>(removed.size())}});
    if (!s.frames.empty())
        o.insert("frame", frameJson(engine, s, s.frames.back()));
    o.insert("frames", static_cast<int>(s.frames.size()));
    o.insert("actor", sideValue(engine.actor(s)));
    o.insert("prompt", engine.prompt(s));
    o.insert("gameOver", s.gameOver);
    if (s.gameOver) {
        o.insert("winner", sideValue(s.winner));
        o.insert("result", s.result);
    }
    return o;
}

} // namespace wp::rules
