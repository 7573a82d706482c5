// Control (3.1), Victory Points (5.1), Electors (5.14) and victory (5.2, scenario conditions).
#include "rules/internal.h"
#include "rules/named.h"

#include <QJsonArray>

#include <algorithm>

namespace wp::rules {

namespace {

int vpSign(int side) {
    return side == kCatholic ? 1 : -1; // 5.12: the Catholic adds, the Protestant subtracts
}

} // namespace

void addVp(Ctx& c, int delta, const QString& why) {
    if (delta == 0)
        return;
    c.s.vp = static_cast<int16_t>(c.s.vp + delta);
    WP_SAY(c, QStringLiteral("%1 VP %2%3 -> %4").arg(why).arg(delta > 0 ? "+" : "").arg(delta).arg(c.s.vp));
}

void violateNeutrality(Ctx& c, int area, int side) {
    AreaState& a = c.s.areas[area];
    if (!a.neutral)
        return;
    a.neutral = false; // the Neutral marker is permanently removed
    // 5.13: the opposing player gains 1 VP: a Catholic violation subtracts, a Protestant one adds.
    addVp(c, side == kCatholic ? -1 : 1,
          QStringLiteral("5.13 %1 units violate the neutrality of %2:")
              .arg(sideName(side), c.d.areas[area].name));
}

// 13.1: a side does not besiege its own fortress; a change of control by an event, a national rule (17.H.5)
// or an Area's control (a Neutral fortress sharing its Area's status, 3.12) ends the siege.
void endSiegeOfOwnCity(Ctx& c, int city) {
    CityState& cs = c.s.cities[city];
    if (cs.siege && cs.sieger != kNone && effectiveCityControl(c.d, c.s, city) == cs.sieger) {
        const int side = cs.sieger;
        cs.siege = 0;
        cs.sieger = kNone;
        WP_SAY(c, QStringLiteral("13.1 the siege of %1 ends").arg(c.d.cities[city].name), side);
    }
}

void recheckAreaControl(Ctx& c, int area, const QString& rule) {
    const Area& ar = c.d.areas[area];
    AreaState& as = c.s.areas[area];
    for (int side : {kCatholic, kProtestant}) {
        if (as.control == side)
            continue;
        int held = 0;
        for (int city : ar.cities)
            if (c.s.cities[city].marker == side && !c.s.cities[city].revolt)
                ++held;
        if (held < ar.control)
            continue;
        // 3.13: gains control of the Area.
        const int before = as.control;
        // 3.13: cities occupied by enemy units do not switch: an unmarked city the enemy held through his
        // Control Box keeps his control with a marker of its own (Landau in the example). 3.12: nor does an
        // enemy-controlled Fortress City, occupied or not; it must be captured by Siege Combat.
        if (before == other(side))
            for (int city : ar.cities) {
                CityState& cs = c.s.cities[city];
                if (cs.marker == kNone && !cs.revolt &&
                    (hasEnemyUnits(c.d, c.s, city, side) || c.d.cities[city].fortress))
                    cs.marker = static_cast<int8_t>(before);
            }
        as.control = static_cast<int8_t>(side);
        as.neutral = false;
        WP_SAY(c,
               QStringLiteral("%1 %2 gains control of %3 (%4 of %5 cities)")
                   .arg(rule, sideName(side), ar.name)
                   .arg(held)
                   .arg(ar.control),
               side);
        // 5.12: the VP value changes hands once per change of control.
        Q_UNUSED(before);
        addVp(c, vpSign(side) * ar.vp, QStringLiteral("5.12 %1 to %2:").arg(ar.name, sideName(side)));
        // 3.13: remove the enemy markers except where enemy units occupy the city; own markers are now
        // implied by the Control Box.
        for (int city : ar.cities) {
            CityState& cs = c.s.cities[city];
            if (cs.marker == side)
                cs.marker = kNone;
            else if (cs.marker == other(side) && !hasEnemyUnits(c.d, c.s, city, side) &&
                     !c.d.cities[city].fortress) // 3.12
                cs.marker = kNone;
        }
        for (int city : ar.cities)
            endSiegeOfOwnCity(c, city);
        break;
    }
    updateElectors(c);
}

void setCityControl(Ctx& c, int city, int side, const QString& rule) {
    const City& ct = c.d.cities[city];
    const int before = effectiveCityControl(c.d, c.s, city);
    if (before == side)
        return;
    CityState& cs = c.s.cities[city];
    cs.marker = static_cast<int8_t>(side);
    if (!ct.independent && ct.area >= 0 && c.s.areas[ct.area].control == side)
        cs.marker = kNone; // implied by the Area's Control Box (3.13)
    WP_SAY(c, QStringLiteral("%1 %2 takes control of %3").arg(rule, sideName(side), ct.name), side);
    endSiegeOfOwnCity(c, city);
    if (ct.independent || ct.france) {
        // 5.12: an Independent City's VP change hands with it.
        if (ct.vp)
            addVp(c, vpSign(side) * ct.vp, QStringLiteral("5.12 %1 to %2:").arg(ct.name, sideName(side)));
        updateElectors(c);
    } else if (ct.area >= 0) {
        recheckAreaControl(c, ct.area, QStringLiteral("3.13"));
    }
}

bool isElectorArea(const GameData& d, const GameState& s, int area) {
    const QString& id = d.areas[area].id;
    if (id == QLatin1String("lower-palatinate") || id == QLatin1String("bavaria"))
        return s.electorate == area; // 5.142
    return d.areas[area].elector;
}

int electorsControlled(const GameData& d, const GameState& s, int side) {
    int n = 0;
    for (qsizetype a = 0; a < d.areas.size(); ++a)
        if (isElectorArea(d, s, static_cast<int>(a)) && s.areas[a].control == side)
            ++n;
    for (qsizetype ci = 0; ci < d.cities.size(); ++ci)
        if (d.cities[ci].elector && effectiveCityControl(d, s, static_cast<int>(ci)) == side)
            ++n;
    return n;
}

void updateElectors(Ctx& c) {
    // 5.141: awards are given when the condition occurs and stand until the opponent achieves the same.
    for (int side : {kCatholic, kProtestant}) {
        const int n = electorsControlled(c.d, c.s, side);
        if (n >= 4 && c.s.electorMajorityHolder != side) {
            c.s.electorMajorityHolder = static_cast<int8_t>(side);
            addVp(
                c, vpSign(side) * 2,
                QStringLiteral("5.141 %1 controls a majority of Electors (%2):").arg(sideName(side)).arg(n));
        }
        if (n == 7 && c.s.electorAllHolder != side) {
            c.s.electorAllHolder = static_cast<int8_t>(side);
            addVp(c, vpSign(side) * 5,
                  QStringLiteral("5.141 %1 controls all seven Electors:").arg(sideName(side)));
        }
    }
}

void endGame(Ctx& c, int winner, const QString& result) {
    c.s.gameOver = true;
    c.s.winner = static_cast<int8_t>(winner);
    c.s.result = result;
    c.s.frames.clear();
    c.s.frames.push_back(TurnFrame{Phase::GameOver, 0});
    WP_SAY(c, QStringLiteral("Game over: %1").arg(result));
}

namespace {

bool controlsAll(const GameData& d, const GameState& s, const QJsonObject& o) {
    const int side =
        o.value(QLatin1String("side")).toString() == QLatin1String("catholic") ? kCatholic : kProtestant;
    for (const QJsonValue& a : o.value(QLatin1String("areas")).toArray())
        if (s.areas[d.area(a.toString())].control != side)
            return false;
    for (const QJsonValue& ci : o.value(QLatin1String("cities")).toArray())
        if (effectiveCityControl(d, s, d.city(ci.toString())) != side)
            return false;
    return true;
}

QString wallensteinStatus(const GameData& d, const GameState& s) {
    const int w = named(d, Named::Wallenstein);
    if (w < 0)
        return QStringLiteral("not-in-play");
    switch (s.leaders[w].status) {
    case LeaderStatus::InPlay:
        return QStringLiteral("in-play");
    case LeaderStatus::Aside:
        return QStringLiteral("dismissed");
    case LeaderStatus::Removed:
        return QStringLiteral("assassinated");
    case LeaderStatus::Dead:
        return QStringLiteral("dead");
    case LeaderStatus::NotEntered:
        break;
    }
    return QStringLiteral("not-in-play");
}

} // namespace

// Evaluates a victory test of the scenario language (docs/data/scenarios.md).
bool victoryTest(const GameData& d, const GameState& s, const QJsonObject& t) {
    if (t.contains(QLatin1String("always")))
        return t.value(QLatin1String("always")).toBool();
    if (t.contains(QLatin1String("vpAtLeast")))
        return s.vp >= t.value(QLatin1String("vpAtLeast")).toInt();
    if (t.contains(QLatin1String("vpAtMost")))
        return s.vp <= t.value(QLatin1String("vpAtMost")).toInt();
    if (t.contains(QLatin1String("controls")))
        return controlsAll(d, s, t.value(QLatin1String("controls")).toObject());
    if (t.contains(QLatin1String("electorsAtLeast"))) {
        const QJsonObject o = t.value(QLatin1String("electorsAtLeast")).toObject();
        const int side =
            o.value(QLatin1String("side")).toString() == QLatin1String("catholic") ? kCatholic : kProtestant;
        return electorsControlled(d, s, side) >= o.value(QLatin1String("count")).toInt();
    }
    if (t.contains(QLatin1String("cardPlayed"))) {
        const int card = d.card(t.value(QLatin1String("cardPlayed")).toString());
        return card >= 0 && s.eventPlayed[card];
    }
    if (t.contains(QLatin1String("leaderCasualty"))) {
        const int l = d.leader(t.value(QLatin1String("leaderCasualty")).toString());
        return l >= 0 && s.leaders[l].status == LeaderStatus::Dead;
    }
    if (t.contains(QLatin1String("wallensteinStatus"))) {
        const QString st = wallensteinStatus(d, s);
        for (const QJsonValue& v : t.value(QLatin1String("wallensteinStatus")).toArray())
            if (v.toString() == st)
                return true;
        return false;
    }
    if (t.contains(QLatin1String("wallensteinTrackAtLeast")))
        return s.wallensteinTrack >= t.value(QLatin1String("wallensteinTrackAtLeast")).toInt();
    if (t.contains(QLatin1String("all"))) {
        for (const QJsonValue& v : t.value(QLatin1String("all")).toArray())
            if (!victoryTest(d, s, v.toObject()))
                return false;
        return true;
    }
    if (t.contains(QLatin1String("any"))) {
        for (const QJsonValue& v : t.value(QLatin1String("any")).toArray())
            if (victoryTest(d, s, v.toObject()))
                return true;
        return false;
    }
    if (t.contains(QLatin1String("not")))
        return !victoryTest(d, s, t.value(QLatin1String("not")).toObject());
    return false;
}

static QString levelName(const QJsonObject& e) {
    const QString level = e.value(QLatin1String("level")).toString();
    const QString w = e.value(QLatin1String("winner")).toString();
    if (w.isEmpty())
        return QStringLiteral("Draw");
    QString lv = level.isEmpty() || level == QLatin1String("victory") ? QString() : level;
    if (!lv.isEmpty())
        lv[0] = lv[0].toUpper();
    return QStringLiteral("%1 %2Victory")
        .arg(w == QLatin1String("catholic") ? "Catholic" : "Protestant", lv.isEmpty() ? "" : lv + " ");
}

static bool applyEntries(Ctx& c, const QJsonArray& entries, const QString& when,
                         const QString& defaultRule = QString()) {
    for (const QJsonValue& v : entries) {
        const QJsonObject e = v.toObject();
        if (!when.isEmpty() && e.value(QLatin1String("when")).toString() != when)
            continue;
        if (!victoryTest(c.d, c.s, e.value(QLatin1String("test")).toObject()))
            continue;
        const QString w = e.value(QLatin1String("winner")).toString();
        const int winner = w == QLatin1String("catholic")     ? kCatholic
                           : w == QLatin1String("protestant") ? kProtestant
                                                              : kNone;
        endGame(c, winner,
                QStringLiteral("%1 (%2, VP %3)")
                    .arg(levelName(e), e.value(QLatin1String("rule")).toString(defaultRule))
                    .arg(c.s.vp));
        return true;
    }
    return false;
}

namespace {
// A victory test of the scenario language compiled once, for the conditions checked after every step: the
// common tests become a comparison of one number; the others keep their JSON and go through victoryTest.
struct CompiledTest {
    enum Kind { VpAtLeast, VpAtMost, WallensteinAtLeast, All, Any, Not, Json } kind = Json;
    int value = 0;
    QJsonObject json;
    std::vector<CompiledTest> parts;
};

CompiledTest compileTest(const QJsonObject& t) {
    CompiledTest out;
    auto parts = [&](const char* key, CompiledTest::Kind kind) {
        out.kind = kind;
        for (const QJsonValue& v : t.value(QLatin1String(key)).toArray())
            out.parts.push_back(compileTest(v.toObject()));
    };
    if (t.size() != 1 || t.contains(QLatin1String("always"))) {
        out.json = t; // victoryTest gives the first matching key its meaning
    } else if (t.contains(QLatin1String("vpAtLeast"))) {
        out.kind = CompiledTest::VpAtLeast;
        out.value = t.value(QLatin1String("vpAtLeast")).toInt();
    } else if (t.contains(QLatin1String("vpAtMost"))) {
        out.kind = CompiledTest::VpAtMost;
        out.value = t.value(QLatin1String("vpAtMost")).toInt();
    } else if (t.contains(QLatin1String("wallensteinTrackAtLeast"))) {
        out.kind = CompiledTest::WallensteinAtLeast;
        out.value = t.value(QLatin1String("wallensteinTrackAtLeast")).toInt();
    } else if (t.contains(QLatin1String("all"))) {
        parts("all", CompiledTest::All);
    } else if (t.contains(QLatin1String("any"))) {
        parts("any", CompiledTest::Any);
    } else if (t.contains(QLatin1String("not"))) {
        out.kind = CompiledTest::Not;
        out.parts.push_back(compileTest(t.value(QLatin1String("not")).toObject()));
    } else {
        out.json = t;
    }
    return out;
}

bool passes(const GameData& d, const GameState& s, const CompiledTest& t) {
    switch (t.kind) {
    case CompiledTest::VpAtLeast:
        return s.vp >= t.value;
    case CompiledTest::VpAtMost:
        return s.vp <= t.value;
    case CompiledTest::WallensteinAtLeast:
        return s.wallensteinTrack >= t.value;
    case CompiledTest::All:
        return std::all_of(t.parts.begin(), t.parts.end(),
                           [&](const CompiledTest& p) { return passes(d, s, p); });
    case CompiledTest::Any:
        return std::any_of(t.parts.begin(), t.parts.end(),
                           [&](const CompiledTest& p) { return passes(d, s, p); });
    case CompiledTest::Not:
        return !passes(d, s, t.parts.front());
    case CompiledTest::Json:
        break;
    }
    return victoryTest(d, s, t.json);
}
} // namespace

bool checkImmediateVictory(Ctx& c) {
    if (c.s.gameOver)
        return true;
    // The scenario's tests, compiled once per scenario and thread (the data never changes while loaded; the
    // fingerprint guards against another data set loaded at the same address).
    struct Compiled {
        const GameData* data = nullptr;
        QByteArray fingerprint;
        QString id;
        const Scenario* scenario = nullptr;
        std::vector<CompiledTest> tests;
    };
    thread_local Compiled compiled;
    if (compiled.data != &c.d || compiled.id != c.s.scenario || compiled.fingerprint != c.d.fingerprint) {
        compiled.data = &c.d;
        compiled.fingerprint = c.d.fingerprint;
        compiled.id = c.s.scenario;
        compiled.scenario = c.d.scenario(c.s.scenario);
        compiled.tests.clear();
        if (compiled.scenario)
            for (const QJsonValue& v : compiled.scenario->immediateVictory)
                compiled.tests.push_back(compileTest(v.toObject().value(QLatin1String("test")).toObject()));
    }
    const Scenario* sc = compiled.scenario;
    if (!sc)
        return false;
    for (size_t i = 0; i < compiled.tests.size(); ++i)
        if (passes(c.d, c.s, compiled.tests[i])) // the entry decides the game: applyEntries reports it
            return applyEntries(c, QJsonArray{sc->immediateVictory.at(qsizetype(i))}, QString());
    return false;
}

void checkEndOfTurnVictory(Ctx& c) {
    if (c.s.gameOver)
        return;
    const Scenario* sc = c.d.scenario(c.s.scenario);
    if (!sc)
        return;
    if (c.s.turn < c.s.lastTurn) {
        // 5.21: early victory only at the end of a turn before the last
        applyEntries(c, sc->victory.value("sudden").toArray(), QStringLiteral("endOfTurn"));
        return;
    }
    QJsonArray final = sc->victory.value("final").toArray();
    QString rule;
    if (c.s.options.victory_19_1)
        for (const QJsonValue& o : sc->victory.value("optional").toArray())
            if (o.toObject().value("rule").toString() == QLatin1String("19.1")) {
                final = o.toObject().value("final").toArray();
                rule = QStringLiteral("19.1"); // its entries name no rule of their own
            }
    if (!applyEntries(c, final, QString(), rule))
        endGame(c, kNone, QStringLiteral("Draw (VP %1)").arg(c.s.vp));
}

} // namespace wp::rules
