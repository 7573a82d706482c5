// Linked battles (issue 12): tabletop result -> the campaign engine's table-result decision.
#include "battle/linked.h"

#include "battle/export.h"
#include "data/datadir.h"
#include "rules/engine.h"
#include "rules/internal.h"
#include "rules/state.h"
#include "tactical/tactical_game.h"
#include "tactical/tercios.h"
#include "tactical/tvbd.h"

#include <QCryptographicHash>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QRegularExpression>
#include <QSet>

#include <algorithm>
#include <cmath>

namespace wp::battle {

using namespace wp::rules;

namespace {

const CombatFrame* topCombat(const GameState& s) {
    return s.frames.empty() ? nullptr : std::get_if<CombatFrame>(&s.frames.back());
}

bool tieGoesToAttacker(const GameData& d, const GameState& s, const CombatFrame& f) {
    // 12.28: ties go to the army led by a Dynamic leader (only one), else to the defender.
    const bool dynA = f.attackCommander >= 0 && isDynamic(d, s, f.attackCommander);
    const bool dynD = f.defendCommander >= 0 && isDynamic(d, s, f.defendCommander);
    return dynA && !dynD;
}

// The ruleset section's "result" object (the table result -> the campaign's, LinkMapping) over the built-in
// values; false with *error naming the file and the key.
bool readLinkMapping(const QJsonObject& section, const QString& rules, LinkMapping* out, QString* error) {
    *out = builtInMapping(rules);
    const QJsonValue v = section.value(QStringLiteral("result"));
    if (v.isUndefined())
        return true;
    const QString where = QStringLiteral("%1: %2.result").arg(defaultMappingPath(), rules);
    if (!v.isObject()) {
        *error = where + QStringLiteral(": expected an object");
        return false;
    }
    return linkMappingFromJson(v.toObject(), where, out, error);
}

// The TVBD ruleset and the export mapping, loaded once per process from the data directory.
struct TvbdFiles {
    const wp::tactical::TvbdRules* rules = nullptr;
    TvbdMapping mapping;
    LinkMapping link;
    QString error;
};
const TvbdFiles& tvbdFiles() {
    static const TvbdFiles files = [] {
        TvbdFiles f;
        f.rules = wp::tactical::defaultTvbdRules(&f.error);
        if (f.rules && (!loadMapping(defaultMappingPath(), &f.mapping, &f.error) ||
                        !readLinkMapping(f.mapping.root, QStringLiteral("tvbd"), &f.link, &f.error)))
            f.rules = nullptr;
        return f;
    }();
    return files;
}

// The auto-resolve: the policy plays both sides to the end (at most 20,000 actions), each choice with
// policyMoveSeed(seed, its index) — the same choices as the tactical window's "auto-resolve the rest" and its
// computer seats, so the record of an auto-resolved battle and of a battle fought on screen replay the same
// way (docs/linked-battles.md "The battle's record").
template <class Game, class Choose> void autoPlay(Game& game, quint64 seed, Choose choose) {
    for (int n = 0; n < 20000 && !game.state().over(); ++n) {
        wp::rules::Rng rng(policyMoveSeed(seed, static_cast<int>(game.actions().size())));
        if (!game.apply(choose(game.engine(), game.state(), rng)))
            break;
    }
}

// The TVBD policy of a record's name ("" and "simple": the simple policy; "tactical": the tactical AI).
wp::tactical::Policy tvbdPolicy(const QString& name) {
    return wp::tactical::policyFromName(name).value_or(wp::tactical::Policy::Simple);
}

// Auto-resolves the exported TVBD battle `o` with `policy` ("" = simple); the end state in *end.
bool runTvbd(const QJsonObject& o, quint64 seed, const QString& policy, wp::tactical::BattleState* end,
             QString* error, QList<TableMove>* played = nullptr) {
    const TvbdFiles& files = tvbdFiles();
    wp::tactical::BattleState start;
    if (!wp::tactical::scenarioFromJson(o, QStringLiteral("linked battle"), *files.rules, &start, error))
        return false;
    const wp::tactical::TvbdEngine engine(*files.rules);
    wp::tactical::TacticalGame game(engine, start, seed);
    const wp::tactical::Policy p = tvbdPolicy(policy);
    autoPlay(game, seed,
             [p](const wp::tactical::TvbdEngine& e, const wp::tactical::BattleState& st,
                 wp::rules::Rng& rng) { return wp::tactical::choosePolicyAction(e, st, p, rng); });
    *end = game.state();
    if (played)
        for (const QString& t : game.actionTexts())
            *played << TableMove{t, {}, wp::tactical::policyName(p)};
    return true;
}

// The Tercios ruleset and its export mapping, loaded once per process.
struct TerciosFiles {
    const wp::tactical::TerciosRules* rules = nullptr;
    TerciosMapping mapping;
    LinkMapping link;
    QString error;
};
const TerciosFiles& terciosFiles() {
    static const TerciosFiles files = [] {
        TerciosFiles f;
        f.rules = wp::tactical::defaultTerciosRules(&f.error);
        if (f.rules && (!loadTerciosMapping(defaultMappingPath(), &f.mapping, &f.error) ||
                        !readLinkMapping(f.mapping.root, QStringLiteral("tercios"), &f.link, &f.error)))
            f.rules = nullptr;
        return f;
    }();
    return files;
}

// Auto-resolves the exported Tercios battle `o`; the end state in *end.
bool runTercios(const QJsonObject& o, quint64 seed, wp::tactical::TerciosState* end, QString* error,
                QList<TableMove>* played = nullptr) {
    const TerciosFiles& files = terciosFiles();
    wp::tactical::TerciosState start;
    if (!wp::tactical::terciosScenarioFromJson(o, QStringLiteral("linked battle"), *files.rules, &start,
                                               error))
        return false;
    const wp::tactical::TerciosEngine engine(*files.rules);
    wp::tactical::TerciosGame game(engine, start, seed);
    autoPlay(game, seed,
             [](const wp::tactical::TerciosEngine& e, const wp::tactical::TerciosState& st,
                wp::rules::Rng& rng) { return wp::tactical::chooseTerciosAction(e, st, false, rng); });
    *end = game.state();
    if (played)
        for (const QString& t : game.actionTexts())
            *played << TableMove{t, {}, QStringLiteral("simple")};
    return true;
}

// Tercios has one policy to play a side well, the simple one: a record naming another is refused.
bool terciosPolicyOk(const QString& policy, QString* error) {
    if (policy.isEmpty() || policy == QLatin1String("simple"))
        return true;
    *error = QStringLiteral("a Tercios battle is played by the simple policy; the record names the '%1' "
                            "policy (the tactical AI plays TVBD only)")
                 .arg(policy);
    return false;
}

} // namespace

QString autoPolicy(const QString& rules) {
    return rules == QLatin1String("tvbd") ? QStringLiteral("tactical") : QStringLiteral("simple");
}

bool exportLinked(const GameData& d, const GameState& s, const QString& rules, quint64 seed, QJsonObject* out,
                  QString* error) {
    const bool tvbd = rules == QLatin1String("tvbd");
    if (!tvbd && rules != QLatin1String("tercios")) {
        *error = QStringLiteral("unknown ruleset '%1' (tvbd, tercios)").arg(rules);
        return false;
    }
    if (tvbd ? !tvbdFiles().rules : !terciosFiles().rules) {
        *error = tvbd ? tvbdFiles().error : terciosFiles().error;
        return false;
    }
    BattleInput in;
    if (!inputFromState(d, s, &in, error))
        return false;
    *out = tvbd ? exportTvbd(in, tvbdFiles().mapping, *tvbdFiles().rules, seed)
                : exportTercios(in, terciosFiles().mapping, *terciosFiles().rules, seed);
    return true;
}

TableResult tableResultFromTercios(const wp::tactical::TerciosState& end) {
    TableResult t;
    t.winner = end.over() ? end.winner : -1;
    t.reason = end.resultReason;
    for (const wp::tactical::TUnit& u : end.units) {
        TableSide& ts = t.sides[u.side == 0 ? 0 : 1]; // the export's side 0 is the campaign attacker
        ts.units += 1;
        if (u.status == wp::tactical::TStatus::Destroyed)
            ts.destroyed += 1;
        else
            ts.remaining += 1;
    }
    return t;
}

QString TableUnit::stateText(const QString& rules) const {
    if (fate != QLatin1String("remaining"))
        return fate;
    if (rules == QLatin1String("tvbd"))
        return QStringLiteral("remaining, resolve %1 of %2").arg(resolve).arg(startResolve);
    QString t = QStringLiteral("remaining, Wear %1 of %2").arg(wear).arg(startResolve);
    if (disordered)
        t += QStringLiteral(", Disordered");
    if (weary())
        t += QStringLiteral(", Weary");
    return t;
}

bool scenarioUnits(const QString& rules, const QJsonObject& scenario, QList<TableUnit>* out, QString* error) {
    // the scenario as the tactical window reads it from its file (a JSON round trip)
    const QJsonObject o =
        QJsonDocument::fromJson(QJsonDocument(scenario).toJson(QJsonDocument::Compact)).object();
    const QString name = QStringLiteral("linked battle");
    QList<TableUnit> units;
    if (rules == QLatin1String("tvbd")) {
        using namespace wp::tactical;
        BattleState st;
        if (!tvbdFiles().rules) {
            *error = tvbdFiles().error;
            return false;
        }
        if (!scenarioFromJson(o, name, *tvbdFiles().rules, &st, error))
            return false;
        for (const Unit& u : st.units) {
            if (u.type == wp::tactical::UnitType::Commander)
                continue; // Commanders are the leaders (the form's list of the leaders lost)
            TableUnit t;
            t.id = u.id;
            t.name = u.name;
            t.type = (u.large ? QStringLiteral("Large ") : QString()) + wp::tactical::typeName(u.type);
            t.side = u.side == 0 ? 0 : 1;
            t.weight = u.large ? 2 : 1;
            t.startResolve = u.startResolve;
            t.resolve = u.startResolve;
            units << t;
        }
    } else if (rules == QLatin1String("tercios")) {
        using namespace wp::tactical;
        TerciosState st;
        if (!terciosFiles().rules) {
            *error = terciosFiles().error;
            return false;
        }
        if (!terciosScenarioFromJson(o, name, *terciosFiles().rules, &st, error))
            return false;
        const TerciosEngine engine(*terciosFiles().rules);
        for (int i = 0; i < st.units.size(); ++i) {
            const TUnit& u = st.units[i];
            TableUnit t;
            t.id = u.id;
            t.name = u.name;
            t.type = u.profile;
            t.side = u.side == 0 ? 0 : 1;
            t.startResolve = engine.stamina(st, i);
            units << t;
        }
    } else {
        *error = QStringLiteral("unknown ruleset '%1' (tvbd, tercios)").arg(rules);
        return false;
    }
    *out = units;
    return true;
}

bool tableUnits(const GameData& d, const GameState& s, QList<TableUnit>* out, QString* error) {
    const CombatFrame* f = topCombat(s);
    if (!f || f->table <= 0) {
        *error = QStringLiteral("no battle is on the table here");
        return false;
    }
    const QString rules = f->table == kBattlesTercios ? QStringLiteral("tercios") : QStringLiteral("tvbd");
    QJsonObject scenario;
    return exportLinked(d, s, rules, linkedBattleSeed(s), &scenario, error) &&
           scenarioUnits(rules, scenario, out, error);
}

bool tableResultFromUnits(const QString& rules, const QList<TableUnit>& units, int winner,
                          const QStringList leadersLost[2], TableResult* out, QString* error) {
    const bool tvbd = rules == QLatin1String("tvbd");
    TableResult t;
    t.winner = winner;
    t.reason = QStringLiteral("entered by hand");
    if (winner < 0 || winner > 2) {
        *error = QStringLiteral("the winner is missing (the attacker, the defender or a draw)");
        return false;
    }
    for (const TableUnit& u : units) {
        auto fail = [&](const QString& why) {
            *error = QStringLiteral("unit %1 '%2': %3").arg(u.id, u.name, why);
            return false;
        };
        TableSide& ts = t.sides[u.side == 0 ? 0 : 1];
        ts.units += u.weight;
        if (u.fate == QLatin1String("destroyed")) {
            ts.destroyed += u.weight;
        } else if (u.fate == QLatin1String("routed")) {
            if (!tvbd)
                return fail(QStringLiteral("Tercios has no rout status: remaining or destroyed"));
            ts.routed += u.weight;
        } else if (u.fate == QLatin1String("remaining")) {
            ts.remaining += u.weight;
            if (tvbd && (u.resolve < 1 || u.resolve > u.startResolve))
                return fail(QStringLiteral("a remaining unit has 1 to %1 resolve left, not %2")
                                .arg(u.startResolve)
                                .arg(u.resolve));
            if (!tvbd && (u.wear < 0 || u.wear > u.startResolve))
                return fail(QStringLiteral("a remaining unit has a Wear of 0 to %1 (its Stamina), not %2")
                                .arg(u.startResolve)
                                .arg(u.wear));
        } else {
            return fail(QStringLiteral("its fate is '%1' (remaining, routed, destroyed)").arg(u.fate));
        }
    }
    for (int i = 0; i < 2; ++i) {
        if (t.sides[i].units == 0) {
            *error = QStringLiteral("the %1 has no tactical units").arg(i == 0 ? "attacker" : "defender");
            return false;
        }
        t.sides[i].leadersLost = leadersLost[i];
    }
    *out = t;
    return true;
}

void rollTableLeaderLosses(const GameData& d, const GameState& s, quint64 seed, TableResult* table,
                           int modifier) {
    const CombatFrame* f = topCombat(s);
    if (!f)
        return;
    // 12.4: no roll for the defender at odds of 1-4 or less (the CRT's strengths: the units' CF)
    const int attCf = cfSum(d, s, std::vector<int>(f->attackUnits.begin(), f->attackUnits.end()));
    const int defCf = cfSum(d, s, std::vector<int>(f->defendUnits.begin(), f->defendUnits.end()));
    Rng rng(seed ^ 0x12410000c0ffeeULL); // the battle's own die: the other player rolls the same
    for (int i = 0; i < 2; ++i) {
        if (i == 1 && attCf * 4 <= defCf)
            continue;
        const int drm =
            modifier + (table->winner == 0 || table->winner == 1 ? (table->winner == i ? -1 : 1) : 0);
        for (int16_t l : i == 0 ? f->attackLeaders : f->defendLeaders) {
            const int roll = rng.d10() + drm; // 12.41: killed on a roll >= the Loss rating
            if (s.leaders[l].status == LeaderStatus::InPlay && roll >= d.leaders[l].loss &&
                !table->sides[i].leadersLost.contains(d.leaders[l].id))
                table->sides[i].leadersLost << d.leaders[l].id;
        }
    }
}

namespace {

// Exports the combat, runs the ruleset's auto-resolve and reads its end state (the tactical log in *log).
// `policy`: "" = autoPolicy(rules).
bool runTable(const GameData& d, const GameState& s, const QString& rules, quint64 seed, int leaderModifier,
              TableResult* out, QString* error, QStringList* log = nullptr,
              QList<TableMove>* played = nullptr, const QString& policy = {}) {
    QJsonObject o;
    if (!exportLinked(d, s, rules, seed, &o, error))
        return false;
    const QString p = policy.isEmpty() ? autoPolicy(rules) : policy;
    if (rules == QLatin1String("tvbd")) {
        wp::tactical::BattleState end;
        if (!runTvbd(o, seed, p, &end, error, played))
            return false;
        *out = tableResultFromTvbd(d, s, end);
        rollTableLeaderLosses(d, s, seed, out, leaderModifier); // the Commanders who did not fall
        if (log)
            *log = end.log;
        return true;
    }
    wp::tactical::TerciosState end;
    if (!terciosPolicyOk(p, error) || !runTercios(o, seed, &end, error, played))
        return false;
    *out = tableResultFromTercios(end);
    rollTableLeaderLosses(d, s, seed, out, leaderModifier);
    if (log)
        *log = end.log;
    return true;
}

} // namespace

QStringList LinkedResult::actions(const GameData& d) const {
    QStringList out;
    out << QStringLiteral("battle-result %1 %2 %3")
               .arg(attackerWins ? QStringLiteral("attacker") : QStringLiteral("defender"))
               .arg(lossNumber[0])
               .arg(lossNumber[1]);
    for (int l : leadersLost)
        out << QStringLiteral("battle-leader %1").arg(d.leaders[l].id);
    if (leadersDone)
        out << QStringLiteral("battle-leader done");
    return out;
}

int lossCapacity(const GameData& d, const GameState& s, int campaignSide) {
    const CombatFrame* f = topCombat(s);
    if (!f)
        return 0;
    int cap = 0;
    for (int16_t u : campaignSide == f->attacker ? f->attackUnits : f->defendUnits)
        if (s.units[u].loc >= 0 && s.units[u].steps > 0)
            cap += d.unitTypes[s.units[u].type].lf * s.units[u].steps;
    return std::min(cap, 99); // as the engine's table-result decision (combat.cpp)
}

void mapNumbers(const TableResult& table, const int capacity[2], bool tieToAttacker, const LinkMapping& m,
                bool* attackerWins, int lossNumber[2]) {
    *attackerWins = table.winner == 0 || ((table.winner == 2 || table.winner < 0) && tieToAttacker);
    const int loser = *attackerWins ? 1 : 0;
    for (int i = 0; i < 2; ++i) {
        const TableSide& t = table.sides[i];
        const int units = t.units > 0 ? t.units : t.destroyed + t.routed + t.remaining;
        double frac = units > 0 ? (t.destroyed + m.routedWeight * t.routed) / units : 0.0;
        frac = std::clamp(frac, 0.0, 1.0);
        // a side destroyed to the last unit loses everything (12.31 then eliminates it)
        const bool wiped = units > 0 && t.destroyed >= units;
        const double share = m.base + m.scale * frac + (i == loser ? m.pursuit : 0.0);
        const int loss = wiped ? capacity[i] : static_cast<int>(std::lround(share * capacity[i]));
        lossNumber[i] = std::clamp(loss, 0, capacity[i]);
    }
    const int floor = std::min(capacity[loser], static_cast<int>(std::lround(m.loserMinimum)));
    lossNumber[loser] = std::max(lossNumber[loser], floor);
}

bool mapResult(const GameData& d, const GameState& s, const TableResult& table, const LinkMapping& mapping,
               LinkedResult* out, QString* error) {
    const CombatFrame* f = topCombat(s);
    if (!f) {
        *error = QStringLiteral("no combat is being resolved (the top frame is not a combat)");
        return false;
    }
    const int cap[2] = {lossCapacity(d, s, f->attacker), lossCapacity(d, s, other(f->attacker))};
    LinkedResult r;
    mapNumbers(table, cap, tieGoesToAttacker(d, s, *f), mapping, &r.attackerWins, r.lossNumber);
    for (int i = 0; i < 2; ++i)
        for (const QString& id : table.sides[i].leadersLost) {
            const int l = d.leader(id);
            const bool inBattle =
                l >= 0 &&
                (std::find(f->attackLeaders.begin(), f->attackLeaders.end(), l) != f->attackLeaders.end() ||
                 std::find(f->defendLeaders.begin(), f->defendLeaders.end(), l) != f->defendLeaders.end());
            if (!inBattle) {
                *error =
                    QStringLiteral("leader '%1' is not in the battle at %2").arg(id, d.cities[f->city].name);
                return false;
            }
            if (!r.leadersLost.contains(l))
                r.leadersLost << l;
        }
    qsizetype inPlay = 0; // the leaders the engine offers at "battle-leader"
    for (const auto* leaders : {&f->attackLeaders, &f->defendLeaders})
        for (int16_t l : *leaders)
            inPlay += s.leaders[l].status == LeaderStatus::InPlay ? 1 : 0;
    r.leadersDone = r.leadersLost.size() < inPlay;
    const QString winner = table.winner == 0   ? QStringLiteral("the attacker won")
                           : table.winner == 1 ? QStringLiteral("the defender won")
                           : table.winner == 2 ? QStringLiteral("a draw (12.28 tie rule)")
                                               : QStringLiteral("unfinished (12.28 tie rule)");
    r.why = QStringLiteral("%1; attacker %2 of %3 units destroyed, %4 routed -> Loss Number %5 of %6; "
                           "defender %7 of %8 destroyed, %9 routed -> Loss Number %10 of %11")
                .arg(winner)
                .arg(table.sides[0].destroyed)
                .arg(table.sides[0].units)
                .arg(table.sides[0].routed)
                .arg(r.lossNumber[0])
                .arg(cap[0])
                .arg(table.sides[1].destroyed)
                .arg(table.sides[1].units)
                .arg(table.sides[1].routed)
                .arg(r.lossNumber[1])
                .arg(cap[1]);
    *out = r;
    return true;
}

TableResult tableResultFromTvbd(const GameData& d, const GameState& s, const wp::tactical::BattleState& end) {
    using wp::tactical::UnitStatus;
    using wp::tactical::UnitType;
    TableResult t;
    t.winner = end.over() ? end.winner : -1;
    t.reason = end.resultReason;
    const CombatFrame* f = topCombat(s);
    for (const wp::tactical::Unit& u : end.units) {
        const int side = u.side == 0 ? 0 : 1; // the export's side 0 is the campaign attacker
        TableSide& ts = t.sides[side];
        if (u.type == UnitType::Commander) {
            if (u.status != UnitStatus::Casualty || !f)
                continue;
            // The export names a Commander "<leader name> (battle N...)" (docs/battle-export.md).
            for (int16_t l : side == 0 ? f->attackLeaders : f->defendLeaders)
                if (u.name.startsWith(d.leaders[l].name + QStringLiteral(" (")))
                    ts.leadersLost << d.leaders[l].id;
            continue;
        }
        const int w = u.large ? 2 : 1;
        ts.units += w;
        if (u.status == UnitStatus::Eliminated)
            ts.destroyed += w;
        else if (u.status == UnitStatus::Routed)
            ts.routed += w;
        else
            ts.remaining += w; // on the table, or pursuing off it (it comes back)
    }
    return t;
}

quint64 linkedBattleSeed(const GameState& s) {
    const CombatFrame* f = topCombat(s);
    if (f && f->tableSeed != 0)
        return f->tableSeed; // fixed when the battle went to the table (combat.cpp)
    Rng r = s.rng;           // a copy: the game's generator is not advanced
    const quint64 hi = r.next(), lo = r.next();
    return ((hi << 32) | lo) ^ (f ? static_cast<quint64>(f->city) * 0x9e3779b97f4a7c15ULL : 0);
}

bool autoResolveLinked(const GameData& d, const GameState& s, const QString& rules, quint64 seed,
                       const LinkMapping& mapping, LinkedResult* out, TableResult* table, QString* error,
                       QStringList* log, const QString& policy) {
    TableResult t;
    if (!runTable(d, s, rules, seed, mapping.leaderModifier, &t, error, log, nullptr, policy))
        return false;
    if (table)
        *table = t;
    return mapResult(d, s, t, mapping, out, error);
}

LinkMapping defaultMapping(const QString& rules) {
    // the file's (a file that does not load stops the battle itself, with its message)
    if (rules == QLatin1String("tercios"))
        return terciosFiles().rules ? terciosFiles().link : builtInMapping(rules);
    return tvbdFiles().rules ? tvbdFiles().link : builtInMapping(rules);
}

bool linkMappingFromJson(const QJsonObject& o, const QString& where, LinkMapping* out, QString* error) {
    // key, the value, its range (a whole number for leaderModifier)
    struct Key {
        const char* name;
        double* value;
        double lo, hi;
    };
    double leader = out->leaderModifier;
    const Key keys[] = {{"base", &out->base, 0, 1},
                        {"routedWeight", &out->routedWeight, 0, 1},
                        {"scale", &out->scale, 0, 5},
                        {"pursuit", &out->pursuit, 0, 1},
                        {"loserMinimum", &out->loserMinimum, 0, 20},
                        {"leaderModifier", &leader, -10, 10}};
    for (const Key& k : keys) {
        const QJsonValue v = o.value(QLatin1String(k.name));
        if (v.isUndefined())
            continue;
        const bool whole = k.value == &leader;
        const double x = v.toDouble(std::nan(""));
        if (!v.isDouble() || !(x >= k.lo && x <= k.hi) || (whole && x != std::floor(x))) {
            *error = QStringLiteral("%1.%2: expected %3 from %4 to %5")
                         .arg(where, QLatin1String(k.name),
                              whole ? QStringLiteral("a whole number") : QStringLiteral("a number"))
                         .arg(k.lo)
                         .arg(k.hi);
            return false;
        }
        *k.value = x;
    }
    out->leaderModifier = static_cast<int>(leader);
    return true;
}

LinkMapping builtInMapping(const QString& rules) {
    LinkMapping m; // TVBD's calibrated values
    if (rules == QLatin1String("tercios")) {
        m.base = 0.0; // Tercios destroys units outright and more of them: no attrition to add
        m.scale = 1.0;
        m.routedWeight = 0.75; // no rout status in Tercios: unused
        m.pursuit = 0.025;
        m.loserMinimum = 1.0;
        m.leaderModifier = 0;
    }
    return m;
}

bool autoResolveTop(const GameData& d, const GameState& s, LinkedResult* out, QString* error) {
    const CombatFrame* f = topCombat(s);
    if (!f || f->table <= 0) {
        *error = QStringLiteral("no battle is waiting for a table result");
        return false;
    }
    const QString rules = f->table == kBattlesTercios ? QStringLiteral("tercios") : QStringLiteral("tvbd");
    return autoResolveLinked(d, s, rules, linkedBattleSeed(s), defaultMapping(rules), out, nullptr, error);
}

namespace {

// Whether the result entered (the CombatFrame waiting for its confirmation) is `r`; *why gives r otherwise.
bool enteredIs(const GameData& d, const CombatFrame* f, const LinkedResult& r, const QString& source,
               QString* why) {
    const int att = f->attacker, def = other(att);
    QList<int> entered;
    for (int16_t l : f->tableLeadersLost)
        entered << l;
    std::sort(entered.begin(), entered.end());
    QList<int> expected = r.leadersLost;
    std::sort(expected.begin(), expected.end());
    const bool same = (f->tableWinner == att) == r.attackerWins && f->lossNumber[att] == r.lossNumber[0] &&
                      f->lossNumber[def] == r.lossNumber[1] && entered == expected;
    if (!same)
        *why = QStringLiteral("%1 gives: %2").arg(source, r.actions(d).join(QStringLiteral("; ")));
    return same;
}

} // namespace

bool matchesAutoResolve(const GameData& d, const GameState& s, QString* why) {
    const CombatFrame* f = topCombat(s);
    if (!f || f->tableWinner == kNone) {
        *why = QStringLiteral("no table result has been entered");
        return false;
    }
    LinkedResult r;
    if (!autoResolveTop(d, s, &r, why))
        return false;
    return enteredIs(d, f, r, QStringLiteral("the auto-resolved battle"), why);
}

// ---- the battle's record
// -----------------------------------------------------------------------------------

bool TableRecord::usesTacticalAi() const {
    if (policy == QLatin1String("tactical"))
        return true;
    return std::any_of(moves.begin(), moves.end(),
                       [](const TableMove& m) { return m.policy == QLatin1String("tactical"); });
}

int TableRecord::handDice() const {
    int n = 0;
    for (const TableMove& m : moves)
        n += static_cast<int>(m.dice.size());
    return n;
}

quint64 policyMoveSeed(quint64 battleSeed, int index) {
    // splitmix64 of the battle seed and the action's index: independent seeds for neighbouring actions
    quint64 z = battleSeed + 0x9e3779b97f4a7c15ULL * (static_cast<quint64>(index) + 1);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

QString scenarioHash(const QJsonObject& scenario) {
    return QString::fromLatin1(
        QCryptographicHash::hash(QJsonDocument(scenario).toJson(QJsonDocument::Compact),
                                 QCryptographicHash::Sha256)
            .toHex()
            .left(16));
}

QString battleDataHashIn(const QString& dir, const QString& rules) {
    QCryptographicHash h(QCryptographicHash::Sha256);
    for (const QString& rel :
         {QStringLiteral("scenarios/battle-mapping.json"), QStringLiteral("scenarios/battle-terrain.json"),
          QStringLiteral("resources/tactical/%1.json").arg(rules)}) {
        h.addData(rel.toUtf8());
        h.addData(QByteArrayView("\0", 1));
        QFile f(dir + QLatin1Char('/') + rel);
        // each file's compact JSON (its formatting does not count); a missing or unreadable one as such
        const QByteArray raw = f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray("(missing)");
        const QJsonDocument doc = QJsonDocument::fromJson(raw);
        h.addData(doc.isNull() ? raw : doc.toJson(QJsonDocument::Compact));
        h.addData(QByteArrayView("\0", 1));
    }
    return QString::fromLatin1(h.result().toHex().left(16));
}

QString battleDataHash(const QString& rules) {
    // the data directory is read once per process, as the tactical rules and the mapping are (tvbdFiles)
    static const QString tvbd = battleDataHashIn(wp::findDataDir(), QStringLiteral("tvbd"));
    static const QString tercios = battleDataHashIn(wp::findDataDir(), QStringLiteral("tercios"));
    return rules == QLatin1String("tercios") ? tercios : tvbd;
}

bool policyFromJson(const QJsonValue& v, QString* name, QString* error) {
    if (v.isBool() && v.toBool()) {
        *name = QStringLiteral("simple");
        return true;
    }
    const QString n = v.toString();
    if (n == QLatin1String("simple") || n == QLatin1String("tactical")) {
        *name = n;
        return true;
    }
    *error = QStringLiteral("expected true or the name of a policy (\"simple\", \"tactical\")");
    return false;
}

QJsonValue policyToJson(const QString& name) {
    if (name.isEmpty() || name == QLatin1String("simple"))
        return true;
    return name;
}

namespace {

QJsonArray movesJson(const QList<TableMove>& moves) {
    QJsonArray out;
    for (const TableMove& m : moves) {
        QJsonObject a;
        a.insert(QStringLiteral("action"), m.text);
        if (!m.dice.isEmpty()) {
            QJsonArray dice;
            for (int v : m.dice)
                dice.append(v);
            a.insert(QStringLiteral("dice"), dice);
        }
        if (m.byPolicy())
            a.insert(QStringLiteral("policy"), policyToJson(m.policy));
        out.append(a);
    }
    return out;
}

} // namespace

QJsonObject tacticalBattleRecord(const QString& rules, quint64 seed, const QString& scenarioFile,
                                 const QList<TableMove>& moves) {
    QJsonObject root;
    root.insert(QStringLiteral("format"), QStringLiteral("westphalia-tactical-battle"));
    root.insert(QStringLiteral("version"), 1);
    root.insert(QStringLiteral("rules"), rules);
    root.insert(QStringLiteral("scenario"), scenarioFile);
    root.insert(QStringLiteral("seed"), QString::number(seed));
    root.insert(QStringLiteral("actions"), movesJson(moves));
    if (std::any_of(moves.begin(), moves.end(),
                    [](const TableMove& m) { return m.policy == QLatin1String("tactical"); }))
        root.insert(QStringLiteral("tacticalAi"), wp::tactical::kTacticalAiRevision);
    return root;
}

bool tacticalAiFromJson(const QJsonValue& v, int* revision, QString* error) {
    if (!v.isDouble() || v.toDouble() != std::floor(v.toDouble()) || v.toDouble() < 1) {
        *error = QStringLiteral("expected the tactical AI's revision, a whole number from 1");
        return false;
    }
    *revision = v.toInt();
    return true;
}

namespace {

// The "form" of a "hand" record (recordFromJson): the winner, the units' fates and states, the leaders.
bool readForm(const QJsonObject& form, TableRecord* r, QString* error) {
    auto fail = [&](const QString& where, const QString& why) {
        *error = QStringLiteral("$.form.%1: %2").arg(where, why);
        return false;
    };
    static const QStringList winners{"attacker", "defender", "draw"};
    r->winner = static_cast<int>(winners.indexOf(form.value(QStringLiteral("winner")).toString()));
    if (r->winner < 0)
        return fail(QStringLiteral("winner"), QStringLiteral("expected attacker, defender or draw"));
    const QJsonArray units = form.value(QStringLiteral("units")).toArray();
    if (units.isEmpty())
        return fail(QStringLiteral("units"), QStringLiteral("expected the battle's units"));
    for (qsizetype i = 0; i < units.size(); ++i) {
        const QJsonObject a = units[i].toObject();
        const QString where = QStringLiteral("units[%1]").arg(i);
        TableUnit u;
        u.id = a.value(QStringLiteral("id")).toString();
        u.fate = a.value(QStringLiteral("fate")).toString();
        if (u.id.isEmpty() || u.fate.isEmpty())
            return fail(where, QStringLiteral("expected an id and a fate"));
        u.resolve = a.value(QStringLiteral("resolve")).toInt();
        u.wear = a.value(QStringLiteral("wear")).toInt();
        u.disordered = a.value(QStringLiteral("disordered")).toBool();
        r->units << u;
    }
    const QJsonArray leaders = form.value(QStringLiteral("leaders")).toArray();
    if (leaders.size() != 2)
        return fail(QStringLiteral("leaders"), QStringLiteral("expected two lists of leader ids"));
    for (int i = 0; i < 2; ++i)
        for (const QJsonValue& v : leaders[i].toArray())
            r->leadersLost[i] << v.toString();
    return true;
}

} // namespace

QJsonObject recordToJson(const TableRecord& r) {
    QJsonObject o;
    o.insert(QStringLiteral("format"), QStringLiteral("westphalia-table-record"));
    o.insert(QStringLiteral("version"), 1);
    o.insert(QStringLiteral("by"), r.by);
    o.insert(QStringLiteral("rules"), r.rules);
    o.insert(QStringLiteral("seed"), QString::number(r.seed));
    o.insert(QStringLiteral("scenario"), r.scenario);
    o.insert(QStringLiteral("computer"), QJsonArray{r.computer[0], r.computer[1]});
    o.insert(QStringLiteral("moves"), movesJson(r.moves));
    if (!r.policy.isEmpty() && r.policy != QLatin1String("simple"))
        o.insert(QStringLiteral("policy"), r.policy); // absent: the simple policy (older records)
    if (r.usesTacticalAi())
        o.insert(QStringLiteral("tacticalAi"), r.tacticalAi);
    if (!r.battleData.isEmpty())
        o.insert(QStringLiteral("battleData"), r.battleData);
    if (r.by == QLatin1String("hand")) {
        static const char* winners[3] = {"attacker", "defender", "draw"};
        QJsonObject form;
        form.insert(QStringLiteral("winner"),
                    r.winner >= 0 && r.winner <= 2 ? QLatin1String(winners[r.winner]) : QLatin1String(""));
        QJsonArray units;
        for (const TableUnit& u : r.units) {
            QJsonObject a{{QStringLiteral("id"), u.id}, {QStringLiteral("fate"), u.fate}};
            if (u.fate == QLatin1String("remaining")) {
                if (r.rules == QLatin1String("tvbd")) {
                    a.insert(QStringLiteral("resolve"), u.resolve);
                } else {
                    a.insert(QStringLiteral("wear"), u.wear);
                    a.insert(QStringLiteral("disordered"), u.disordered);
                }
            }
            units.append(a);
        }
        form.insert(QStringLiteral("units"), units);
        form.insert(QStringLiteral("leaders"), QJsonArray{QJsonArray::fromStringList(r.leadersLost[0]),
                                                          QJsonArray::fromStringList(r.leadersLost[1])});
        o.insert(QStringLiteral("form"), form);
    }
    return o;
}

bool recordFromJson(const QJsonObject& o, TableRecord* out, QString* error) {
    auto fail = [&](const QString& where, const QString& why) {
        *error = QStringLiteral("$.%1: %2").arg(where, why);
        return false;
    };
    if (o.value(QStringLiteral("format")).toString() != QLatin1String("westphalia-table-record"))
        return fail(QStringLiteral("format"), QStringLiteral("expected \"westphalia-table-record\""));
    if (o.value(QStringLiteral("version")).toInt() != 1)
        return fail(QStringLiteral("version"), QStringLiteral("this Westphalia reads version 1"));
    TableRecord r;
    r.by = o.value(QStringLiteral("by")).toString();
    if (r.by != QLatin1String("auto") && r.by != QLatin1String("screen") && r.by != QLatin1String("hand"))
        return fail(QStringLiteral("by"), QStringLiteral("expected \"auto\", \"screen\" or \"hand\""));
    r.rules = o.value(QStringLiteral("rules")).toString();
    if (r.rules != QLatin1String("tvbd") && r.rules != QLatin1String("tercios"))
        return fail(QStringLiteral("rules"), QStringLiteral("expected \"tvbd\" or \"tercios\""));
    bool ok = false;
    r.seed = o.value(QStringLiteral("seed")).toString().toULongLong(&ok);
    if (!ok)
        return fail(QStringLiteral("seed"), QStringLiteral("expected a whole number in a string"));
    r.scenario = o.value(QStringLiteral("scenario")).toString();
    const QJsonArray computer = o.value(QStringLiteral("computer")).toArray();
    if (computer.size() != 2 || !computer[0].isBool() || !computer[1].isBool())
        return fail(QStringLiteral("computer"), QStringLiteral("expected two true/false values"));
    r.computer[0] = computer[0].toBool();
    r.computer[1] = computer[1].toBool();
    const QJsonArray moves = o.value(QStringLiteral("moves")).toArray();
    for (qsizetype i = 0; i < moves.size(); ++i) {
        const QJsonObject a = moves[i].toObject();
        const QString where = QStringLiteral("moves[%1]").arg(i);
        TableMove m;
        m.text = a.value(QStringLiteral("action")).toString();
        if (m.text.isEmpty())
            return fail(where + QStringLiteral(".action"), QStringLiteral("missing"));
        for (const QJsonValue& v : a.value(QStringLiteral("dice")).toArray()) {
            if (!v.isDouble() || v.toInt() < 1 || v.toInt() > 6)
                return fail(where + QStringLiteral(".dice"), QStringLiteral("a die is a whole number 1-6"));
            m.dice << v.toInt();
        }
        const QJsonValue policy = a.value(QStringLiteral("policy"));
        if (!policy.isUndefined() && policy != QJsonValue(false)) {
            QString why;
            if (!policyFromJson(policy, &m.policy, &why))
                return fail(where + QStringLiteral(".policy"), why);
        }
        if (m.byPolicy() && !m.dice.isEmpty())
            return fail(where, QStringLiteral("a move of the policy takes no dice rolled by hand"));
        r.moves << m;
    }
    if (const QJsonValue policy = o.value(QStringLiteral("policy")); !policy.isUndefined()) {
        QString why;
        if (policy.isBool() || !policyFromJson(policy, &r.policy, &why))
            return fail(QStringLiteral("policy"), QStringLiteral("expected \"simple\" or \"tactical\""));
        if (r.by != QLatin1String("auto"))
            return fail(QStringLiteral("policy"),
                        QStringLiteral("only an auto-resolved battle's record names one policy (a "
                                       "battle fought on screen names it per move)"));
    }
    if (const QJsonValue ai = o.value(QStringLiteral("tacticalAi")); !ai.isUndefined()) {
        QString why;
        if (!tacticalAiFromJson(ai, &r.tacticalAi, &why))
            return fail(QStringLiteral("tacticalAi"), why);
        if (!r.usesTacticalAi())
            return fail(QStringLiteral("tacticalAi"),
                        QStringLiteral("only a record with moves of the tactical AI names its revision"));
    } else {
        r.tacticalAi = 1; // the records written before the field: the AI of session 8
    }
    if (const QJsonValue data = o.value(QStringLiteral("battleData")); !data.isUndefined()) {
        static const QRegularExpression hex(QStringLiteral("^[0-9a-f]{16}$"));
        if (!data.isString() || !hex.match(data.toString()).hasMatch())
            return fail(QStringLiteral("battleData"), QStringLiteral("expected 16 hexadecimal digits"));
        r.battleData = data.toString();
    }
    if (r.by == QLatin1String("hand") && !readForm(o.value(QStringLiteral("form")).toObject(), &r, error))
        return false;
    *out = r;
    return true;
}

QString encodeRecord(const TableRecord& r) {
    const QByteArray z = qCompress(QJsonDocument(recordToJson(r)).toJson(QJsonDocument::Compact), 9);
    return QString::fromLatin1(z.toBase64(QByteArray::Base64UrlEncoding | QByteArray::OmitTrailingEquals));
}

bool decodeRecord(const QString& attachment, TableRecord* out, QString* error) {
    const auto bytes = QByteArray::fromBase64Encoding(
        attachment.toLatin1(), QByteArray::Base64UrlEncoding | QByteArray::AbortOnBase64DecodingErrors);
    if (!bytes || bytes.decoded.size() < 5) {
        *error = QStringLiteral("the attachment is not base64url");
        return false;
    }
    const QByteArray& z = bytes.decoded;
    const quint32 size = (quint32(uchar(z[0])) << 24) | (quint32(uchar(z[1])) << 16) |
                         (quint32(uchar(z[2])) << 8) | quint32(uchar(z[3]));
    if (size > 16u * 1024 * 1024) {
        *error = QStringLiteral("the attachment claims %1 bytes: too large for a battle's record").arg(size);
        return false;
    }
    const QByteArray json = qUncompress(z);
    QJsonParseError pe;
    const QJsonDocument doc = QJsonDocument::fromJson(json, &pe);
    if (json.isEmpty() || pe.error != QJsonParseError::NoError || !doc.isObject()) {
        *error = QStringLiteral("the attachment is not a compressed JSON object");
        return false;
    }
    return recordFromJson(doc.object(), out, error);
}

namespace {

QString tableEndText(const TableResult& t) {
    const QString who = t.winner == 0   ? QStringLiteral("the attacker wins")
                        : t.winner == 1 ? QStringLiteral("the defender wins")
                        : t.winner == 2 ? QStringLiteral("a draw")
                                        : QStringLiteral("unfinished");
    return t.reason.isEmpty() ? who : QStringLiteral("%1 (%2)").arg(who, t.reason);
}

// Replays the moves of a battle fought in the tactical window from its scenario `st` and seed, as the
// window's session does (views/tacticalsession.cpp): the seed noted, the engine started, each move with its
// hand dice first; a policy move chosen again by its policy (choose(engine, state, policy name, rng)) with
// its policyMoveSeed and compared. The end in *end.
template <class State, class Engine, class Act, class Choose>
bool replayMoves(const Engine& engine, State st, const TableRecord& r, Choose choose, State* end,
                 QString* error) {
    st.rng.reseed(r.seed);
    st.note(QStringLiteral("seed %1").arg(r.seed));
    engine.start(st);
    static const char* sideWord[2] = {"attacker", "defender"};
    for (qsizetype k = 0; k < r.moves.size(); ++k) {
        const TableMove& m = r.moves[k];
        auto fail = [&](const QString& why) {
            *error = QStringLiteral("tactical action %1 of %2 '%3': %4")
                         .arg(k + 1)
                         .arg(r.moves.size())
                         .arg(m.text, why);
            return false;
        };
        if (st.over())
            return fail(QStringLiteral("comes after the end of the battle"));
        const int actor = engine.actor(st);
        Act a;
        QString why;
        if (m.byPolicy()) {
            wp::rules::Rng rng(policyMoveSeed(r.seed, static_cast<int>(k)));
            a = choose(engine, st, m.policy, rng);
            const QString chosen = actionText(st, a);
            if (chosen != m.text)
                return fail(QStringLiteral("said to be the computer's move (the %1 policy), but its choice "
                                           "here is '%2'")
                                .arg(m.policy, chosen));
        } else {
            if (actor >= 0 && actor <= 1 && r.computer[actor])
                return fail(QStringLiteral("the %1's side was the computer seat's, and this is not its move")
                                .arg(QLatin1String(sideWord[actor])));
            if (!parseAction(st, m.text, &a, &why))
                return fail(why);
        }
        st.scripted = m.dice;
        if (!engine.apply(st, a, &why))
            return fail(QStringLiteral("not legal here: %1").arg(why));
        if (!st.scripted.isEmpty())
            return fail(QStringLiteral("%1 dice were entered, %2 rolled")
                            .arg(m.dice.size())
                            .arg(m.dice.size() - st.scripted.size()));
    }
    if (!st.over()) {
        *error = QStringLiteral("the battle is not over after its %1 tactical actions").arg(r.moves.size());
        return false;
    }
    *end = st;
    return true;
}

} // namespace

namespace {

// The fates and states of a "hand" record's form put on the scenario's units: every unit of the scenario
// entered exactly once, no other.
bool mergeForm(const TableRecord& record, QList<TableUnit>* units, QString* error) {
    QSet<QString> seen;
    for (const TableUnit& e : record.units) {
        auto it =
            std::find_if(units->begin(), units->end(), [&](const TableUnit& u) { return u.id == e.id; });
        if (it == units->end()) {
            *error = QStringLiteral("the form names unit '%1', which is not in the battle").arg(e.id);
            return false;
        }
        if (seen.contains(e.id)) {
            *error = QStringLiteral("the form enters unit %1 '%2' twice").arg(e.id, it->name);
            return false;
        }
        seen.insert(e.id);
        it->fate = e.fate;
        it->resolve = e.resolve;
        it->wear = e.wear;
        it->disordered = e.disordered;
    }
    for (const TableUnit& u : *units)
        if (!seen.contains(u.id)) {
            *error = QStringLiteral("the form has no fate for unit %1 '%2'").arg(u.id, u.name);
            return false;
        }
    return true;
}

} // namespace

namespace {

// A record of the battle on top of `s` by `by`: its ruleset, its battle seed and its exported scenario's
// hash.
bool recordOfTop(const GameData& d, const GameState& s, const QString& by, TableRecord* out, QString* error) {
    const CombatFrame* f = topCombat(s);
    if (!f || f->table <= 0) {
        *error = QStringLiteral("no battle is on the table here");
        return false;
    }
    TableRecord r;
    r.by = by;
    r.rules = f->table == kBattlesTercios ? QStringLiteral("tercios") : QStringLiteral("tvbd");
    r.seed = linkedBattleSeed(s);
    QJsonObject scenario;
    if (!exportLinked(d, s, r.rules, r.seed, &scenario, error))
        return false;
    r.scenario = scenarioHash(scenario);
    r.battleData = battleDataHash(r.rules);
    *out = r;
    return true;
}

} // namespace

bool handRecord(const GameData& d, const GameState& s, int winner, const QList<TableUnit>& units,
                const QStringList leadersLost[2], TableRecord* out, QString* error) {
    TableRecord r;
    if (!recordOfTop(d, s, QStringLiteral("hand"), &r, error))
        return false;
    r.winner = winner;
    r.units = units;
    r.leadersLost[0] = leadersLost[0];
    r.leadersLost[1] = leadersLost[1];
    *out = r;
    return true;
}

namespace {

// What a record's check that failed adds when the record was made with other battle data than this copy's
// (docs/linked-battles.md "battleData"): the likely cause. "" when the data are the same or not named.
QString otherBattleData(const TableRecord& record) {
    if (record.battleData.isEmpty() || record.battleData == battleDataHash(record.rules))
        return {};
    return QStringLiteral(" (the record was made with other battle data, %1, than this copy's %2: "
                          "scenarios/battle-mapping.json, scenarios/battle-terrain.json or "
                          "resources/tactical/%3.json differ between the copies, and both players need the "
                          "same to check a battle)")
        .arg(record.battleData, battleDataHash(record.rules), record.rules);
}

bool replayRecordHere(const GameData& d, const GameState& s, const TableRecord& record, RecordCheck* out,
                      QString* error);

} // namespace

bool replayRecord(const GameData& d, const GameState& s, const TableRecord& record, RecordCheck* out,
                  QString* error) {
    if (replayRecordHere(d, s, record, out, error))
        return true;
    *error += otherBattleData(record);
    return false;
}

namespace {

bool replayRecordHere(const GameData& d, const GameState& s, const TableRecord& record, RecordCheck* out,
                      QString* error) {
    const CombatFrame* f = topCombat(s);
    if (!f || f->table <= 0) {
        *error = QStringLiteral("no battle is on the table here");
        return false;
    }
    const QString rules = f->table == kBattlesTercios ? QStringLiteral("tercios") : QStringLiteral("tvbd");
    if (record.rules != rules) {
        *error = QStringLiteral("the record is of a %1 battle; this battle is fought with %2")
                     .arg(record.rules, rules);
        return false;
    }
    const quint64 seed = linkedBattleSeed(s);
    if (record.seed != seed) {
        *error = QStringLiteral(
                     "the record's battle seed %1 is not this battle's (%2): the record of another battle")
                     .arg(record.seed)
                     .arg(seed);
        return false;
    }
    if (rules == QLatin1String("tvbd") && record.usesTacticalAi() &&
        record.tacticalAi != wp::tactical::kTacticalAiRevision) {
        *error = QStringLiteral("the record's computer moves were chosen by revision %1 of the tactical AI; "
                                "this copy of Westphalia plays revision %2 and cannot choose them again: "
                                "both players need the same version to check the record")
                     .arg(record.tacticalAi)
                     .arg(wp::tactical::kTacticalAiRevision);
        return false;
    }
    RecordCheck c;
    c.record = record;
    if (!exportLinked(d, s, rules, seed, &c.scenarioJson, error))
        return false;
    if (scenarioHash(c.scenarioJson) != record.scenario) {
        *error =
            QStringLiteral("the battle exported here (scenario %1) is not the one fought (scenario %2): the "
                           "tactical data (resources/tactical/, scenarios/battle-mapping.json) or the battle "
                           "export differ between the copies")
                .arg(scenarioHash(c.scenarioJson), record.scenario);
        return false;
    }
    const LinkMapping mapping = defaultMapping(rules);
    if (record.by == QLatin1String("hand")) {
        if (!record.moves.isEmpty() || record.computer[0] || record.computer[1]) {
            *error = QStringLiteral("a real table's record lists no tactical moves and no computer seat");
            return false;
        }
        QList<TableUnit> units;
        if (!scenarioUnits(rules, c.scenarioJson, &units, error) || !mergeForm(record, &units, error) ||
            !tableResultFromUnits(rules, units, record.winner, record.leadersLost, &c.table, error))
            return false;
        c.units = units;
        c.log << QStringLiteral("a real table's result, entered in the form (%1 units)").arg(units.size());
        for (const TableUnit& u : units)
            c.log << QStringLiteral("%1 %2 %3 (%4): %5")
                         .arg(u.side == 0 ? QStringLiteral("attacker") : QStringLiteral("defender"), u.id,
                              u.name, u.type, u.stateText(rules));
    } else if (record.by == QLatin1String("auto")) {
        if (!record.moves.isEmpty()) {
            *error = QStringLiteral("an auto-resolved battle's record lists no moves");
            return false;
        }
        // the policy the record names; none: the simple policy (records written before the field)
        const QString policy = record.policy.isEmpty() ? QStringLiteral("simple") : record.policy;
        if (!runTable(d, s, rules, seed, mapping.leaderModifier, &c.table, error, &c.log, &c.played, policy))
            return false;
    } else {
        // the scenario as the tactical window reads it from its file (a JSON round trip)
        const QJsonObject o =
            QJsonDocument::fromJson(QJsonDocument(c.scenarioJson).toJson(QJsonDocument::Compact)).object();
        const QString name = QStringLiteral("linked battle");
        if (rules == QLatin1String("tvbd")) {
            using namespace wp::tactical;
            BattleState start, end;
            if (!scenarioFromJson(o, name, *tvbdFiles().rules, &start, error))
                return false;
            const TvbdEngine engine(*tvbdFiles().rules);
            auto choose = [](const TvbdEngine& e, const BattleState& st, const QString& policy,
                             wp::rules::Rng& rng) {
                return choosePolicyAction(e, st, tvbdPolicy(policy), rng);
            };
            if (!replayMoves<BattleState, TvbdEngine, TAction>(engine, start, record, choose, &end, error))
                return false;
            c.table = tableResultFromTvbd(d, s, end);
            c.log = end.log;
            c.played = record.moves;
        } else {
            using namespace wp::tactical;
            TerciosState start, end;
            if (!terciosScenarioFromJson(o, name, *terciosFiles().rules, &start, error))
                return false;
            const TerciosEngine engine(*terciosFiles().rules);
            for (const TableMove& m : record.moves)
                if (!terciosPolicyOk(m.policy, error))
                    return false;
            auto choose = [](const TerciosEngine& e, const TerciosState& st, const QString&,
                             wp::rules::Rng& rng) { return chooseTerciosAction(e, st, false, rng); };
            if (!replayMoves<TerciosState, TerciosEngine, TcAction>(engine, start, record, choose, &end,
                                                                    error))
                return false;
            c.table = tableResultFromTercios(end);
            c.log = end.log;
            c.played = record.moves;
        }
        rollTableLeaderLosses(d, s, seed, &c.table, mapping.leaderModifier);
    }
    c.end = tableEndText(c.table);
    if (!mapResult(d, s, c.table, mapping, &c.expected, error))
        return false;
    if (out)
        *out = std::move(c);
    return true;
}

} // namespace

bool autoRecord(const GameData& d, const GameState& s, QString* attachment, QString* error) {
    TableRecord record;
    if (!recordOfTop(d, s, QStringLiteral("auto"), &record, error))
        return false;
    record.policy = autoPolicy(record.rules); // the policy autoResolveTop plays
    *attachment = encodeRecord(record);
    return true;
}

bool checkAttachedResult(const GameData& d, const GameState& s, const QStringList& texts, int receiver,
                         RecordCheck* out, QString* error) {
    QString attachment;
    const QString first = texts.isEmpty() ? QString() : splitAttachment(texts.front(), &attachment);
    TableRecord record;
    QString why;
    if (attachment.isEmpty() || !decodeRecord(attachment, &record, &why)) {
        *error = QStringLiteral("the battle's record cannot be read: %1")
                     .arg(attachment.isEmpty() ? QStringLiteral("there is none") : why);
        return false;
    }
    RecordCheck c;
    if (!replayRecord(d, s, record, &c, &why)) {
        *error = QStringLiteral("the battle's record does not replay: %1").arg(why);
        return false;
    }
    const CombatFrame* f = topCombat(s);
    if (receiver == kCatholic || receiver == kProtestant) {
        const int t = receiver == f->attacker ? 0 : 1;
        if (record.by == QLatin1String("screen") && !record.computer[t]) {
            *error =
                QStringLiteral("in the battle fought on screen the %1's side (the %2 player's, who receives "
                               "the file) was not played by the computer seat: by e-mail the sender "
                               "cannot choose the other side's moves")
                    .arg(t == 0 ? QStringLiteral("attacker") : QStringLiteral("defender"),
                         sideName(receiver));
            return false;
        }
        if (record.handDice() > 0) {
            *error = QStringLiteral(
                         "%1 dice of the battle fought on screen were rolled by hand: by e-mail only the "
                         "battle's own dice count (a real table's result is entered in the form and "
                         "confirmed by the other player)")
                         .arg(record.handDice());
            return false;
        }
    }
    const QStringList want = c.expected.actions(d);
    for (qsizetype k = 0; k < want.size(); ++k) {
        if (k >= texts.size()) {
            *error = QStringLiteral(
                         "the table result stops after %1 of its %2 actions (the battle's record gives: %3)")
                         .arg(k)
                         .arg(want.size())
                         .arg(want.join(QStringLiteral("; "))) +
                     otherBattleData(record);
            return false;
        }
        const QString got = (k == 0 ? first : texts[k]).simplified();
        if (got != want[k]) {
            *error = QStringLiteral("'%1' is not the result of the battle's record (%2%3: %4)%5")
                         .arg(got,
                              record.by == QLatin1String("hand") ? QStringLiteral("the form entered: ")
                                                                 : QString(),
                              c.end, want.join(QStringLiteral("; ")), otherBattleData(record));
            return false;
        }
    }
    if (out)
        *out = std::move(c);
    return true;
}

QString enteredAttachment(const QStringList& actions) {
    for (qsizetype i = actions.size() - 1; i >= 0; --i)
        if (actions[i].startsWith(QLatin1String("battle-result "))) {
            QString attachment;
            splitAttachment(actions[i], &attachment);
            return attachment;
        }
    return {};
}

bool matchesRecord(const GameData& d, const GameState& s, const QString& attachment, RecordCheck* out,
                   QString* why) {
    const CombatFrame* f = topCombat(s);
    if (!f || f->tableWinner == kNone) {
        *why = QStringLiteral("no table result has been entered");
        return false;
    }
    TableRecord record;
    QString error;
    if (!decodeRecord(attachment, &record, &error)) {
        *why = QStringLiteral("the battle's record cannot be read: %1").arg(error);
        return false;
    }
    RecordCheck c;
    if (!replayRecord(d, s, record, &c, &error)) {
        *why = QStringLiteral("the battle's record does not replay: %1").arg(error);
        return false;
    }
    const bool same =
        enteredIs(d, f, c.expected,
                  record.by == QLatin1String("auto")   ? QStringLiteral("the auto-resolved battle")
                  : record.by == QLatin1String("hand") ? QStringLiteral("the form entered by hand")
                                                       : QStringLiteral("the battle fought on screen"),
                  why);
    if (!same)
        *why += otherBattleData(record);
    if (out)
        *out = std::move(c);
    return same;
}

bool parseTableForm(const QString& text, const QString& fileName, TableResult* out, QString* error) {
    TableResult t;
    t.reason = QStringLiteral("entered by hand");
    bool haveWinner = false, haveSide[2] = {false, false};
    const QStringList lines = text.split(QLatin1Char('\n'));
    for (qsizetype i = 0; i < lines.size(); ++i) {
        const QString line = lines[i].section(QLatin1Char('#'), 0, 0).simplified();
        if (line.isEmpty())
            continue;
        auto fail = [&](const QString& why) {
            *error = QStringLiteral("%1:%2: %3").arg(fileName).arg(i + 1).arg(why);
            return false;
        };
        const QStringList w = line.split(QLatin1Char(' '));
        if (w[0] == QLatin1String("winner")) {
            static const QStringList values{"attacker", "defender", "draw"};
            const int v = w.size() == 2 ? static_cast<int>(values.indexOf(w[1])) : -1;
            if (v < 0)
                return fail(QStringLiteral("'winner' needs attacker, defender or draw"));
            t.winner = v;
            haveWinner = true;
        } else if (w[0] == QLatin1String("attacker") || w[0] == QLatin1String("defender")) {
            const int side = w[0] == QLatin1String("attacker") ? 0 : 1;
            TableSide& ts = t.sides[side];
            for (qsizetype k = 1; k < w.size(); k += 2) {
                const QString& key = w[k];
                if (key == QLatin1String("lost")) {
                    for (qsizetype m = k + 1; m < w.size(); ++m)
                        ts.leadersLost << w[m];
                    if (k + 1 >= w.size())
                        return fail(QStringLiteral("'lost' needs leader ids"));
                    break;
                }
                bool ok = false;
                const int n = k + 1 < w.size() ? w[k + 1].toInt(&ok) : -1;
                if (!ok || n < 0 || n > 999)
                    return fail(QStringLiteral("'%1' needs a whole number 0-999").arg(key));
                if (key == QLatin1String("units"))
                    ts.units = n;
                else if (key == QLatin1String("destroyed"))
                    ts.destroyed = n;
                else if (key == QLatin1String("routed"))
                    ts.routed = n;
                else if (key == QLatin1String("remaining"))
                    ts.remaining = n;
                else
                    return fail(
                        QStringLiteral("unknown field '%1' (units, destroyed, routed, remaining, lost)")
                            .arg(key));
            }
            if (ts.units == 0)
                ts.units = ts.destroyed + ts.routed + ts.remaining;
            if (ts.units == 0)
                return fail(QStringLiteral("%1: the number of units is missing").arg(w[0]));
            if (ts.destroyed + ts.routed > ts.units)
                return fail(QStringLiteral("%1: %2 destroyed and %3 routed of only %4 units")
                                .arg(w[0])
                                .arg(ts.destroyed)
                                .arg(ts.routed)
                                .arg(ts.units));
            if (ts.remaining == 0)
                ts.remaining = ts.units - ts.destroyed - ts.routed;
            haveSide[side] = true;
        } else {
            return fail(QStringLiteral("unknown line '%1' (winner, attacker, defender)").arg(w[0]));
        }
    }
    if (!haveWinner || !haveSide[0] || !haveSide[1]) {
        *error = QStringLiteral("%1: the form needs a 'winner' line and an 'attacker' and a 'defender' line")
                     .arg(fileName);
        return false;
    }
    *out = t;
    return true;
}

void BattleReporter::add(int index, const GameState& before, const QString& text, const Log& log,
                         const GameState& after) {
    static const QRegularExpression startRe(
        QStringLiteral("^12\\.2 battle at (.+): (Catholic|Protestant) attacks with"));
    static const QRegularExpression lossRe(
        QStringLiteral("^12\\.31 (Catholic|Protestant) takes \\d+ of Loss Number (\\d+)"));
    static const QRegularExpression winRe(QStringLiteral("^12\\.28 (Catholic|Protestant) wins the battle"));
    static const QRegularExpression tableRe(QStringLiteral("^linked battle at .+ \\((.+)\\): "));
    static const QRegularExpression lostRe(
        QStringLiteral("^12\\.4[13](?: \\(lost on the table\\))? (.+) is lost$"));
    QString attachment;
    const QString notation = splitAttachment(text, &attachment);
    const bool result = notation.startsWith(QLatin1String("battle-result"));
    const bool entry = result || notation.startsWith(QLatin1String("battle-leader "));
    if (m_open >= 0 && entry) {
        // The links of a table battle: its seed and record when the result is entered; once the entry is
        // complete (the defender's confirmation is the decision), whether the result is the auto-resolved
        // battle and whether its record replays to it — also before the confirmation is played (an e-mail
        // copy's history holds only the actions sent). `before` is read for the result only.
        BattleRecord& rec = m_out[m_open];
        const CombatFrame* f = topCombat(before);
        if (result && f && f->table > 0) {
            if (rec.tableBattle == 0) {
                rec.tableBattle = ++m_tableBattles;
                rec.rules = f->table == kBattlesTercios ? QStringLiteral("tercios") : QStringLiteral("tvbd");
                rec.battleSeed = linkedBattleSeed(before);
            }
            rec.attachment = attachment;
            rec.resultAction = index;
            rec.tableState = std::make_shared<const GameState>(before);
            rec.evidence.clear();
            rec.form.clear();
            rec.recordOk = -1;
            rec.recordError.clear();
            rec.autoResolved = -1;
        }
        bool complete = false;
        for (const Action& a : m_engine.legalActions(after))
            complete = complete || (a.kind == ActionKind::Choose && a.target == kBattleConfirm);
        if (complete && rec.tableBattle > 0) {
            QString differs;
            rec.autoResolved = matchesAutoResolve(m_engine.data(), after, &differs) ? 1 : 0;
            if (!rec.attachment.isEmpty()) {
                RecordCheck check;
                rec.recordOk =
                    matchesRecord(m_engine.data(), after, rec.attachment, &check, &rec.recordError) ? 1 : 0;
                rec.evidence = check.record.by.isEmpty() ? QStringLiteral("?") : check.record.by;
                if (check.record.by == QLatin1String("hand"))
                    rec.form = check.log;
            }
        }
    }
    if (notation.startsWith(QLatin1String("battle-result")) ||
        notation.startsWith(QLatin1String("battle-leader ")))
        m_pendingTable << notation;
    for (const LogLine& l : log) {
        if (const auto m = startRe.match(l.text); m.hasMatch()) {
            BattleRecord b;
            b.action = index;
            b.turn = after.turn;
            b.city = m.captured(1);
            b.attacker = m.captured(2);
            b.resolution = QStringLiteral("CRT");
            m_out.append(b);
            m_open = m_out.size() - 1;
            m_pendingTable.clear();
            continue;
        }
        if (m_open < 0)
            continue;
        BattleRecord& rec = m_out[m_open];
        if (const auto m = tableRe.match(l.text); m.hasMatch()) {
            rec.resolution = QStringLiteral("table: ") + m.captured(1);
        } else if (l.text.startsWith(QLatin1String("12.26 (linked battle)"))) {
            rec.tableResult = m_pendingTable.join(QStringLiteral("; "));
        } else if (const auto m2 = lossRe.match(l.text); m2.hasMatch()) {
            rec.lossNumber[m2.captured(1) == rec.attacker ? 0 : 1] = m2.captured(2).toInt();
        } else if (const auto m3 = lostRe.match(l.text); m3.hasMatch()) {
            rec.leadersLost << m3.captured(1);
        } else if (const auto m4 = winRe.match(l.text); m4.hasMatch()) {
            rec.winner = m4.captured(1);
        }
    }
    if (m_open >= 0 && !m_out[m_open].winner.isEmpty() &&
        (after.frames.empty() || !std::holds_alternative<CombatFrame>(after.frames.back())))
        m_open = -1; // the battle is over (a retreat may still follow while it is on top)
}

bool battleReport(const Engine& engine, GameState s, const QStringList& actions, QList<BattleRecord>* out,
                  QString* error) {
    BattleReporter reporter(engine);
    for (qsizetype i = 0; i < actions.size(); ++i) {
        QString why;
        const auto a = parseAction(engine.data(), s, actions[i], &why);
        // the reporter reads the state before an action only for a table result
        const bool table = actions[i].startsWith(QLatin1String("battle-result"));
        GameState before;
        if (table)
            before = s;
        Log log;
        const ApplyResult r = a ? engine.apply(s, *a, &log) : ApplyResult{};
        if (!a || !r.ok) {
            *error = QStringLiteral("action %1 '%2': %3").arg(i + 1).arg(actions[i], a ? r.error : why);
            return false;
        }
        reporter.add(static_cast<int>(i), table ? before : s, actions[i], log, s);
    }
    *out = reporter.battles();
    return true;
}

bool calibrate(const Engine& engine, const QString& rules, int games, quint64 seed,
               const LinkMapping& mapping, QList<CalibrationSample>* out, QString* error) {
    if (rules != QLatin1String("tvbd") && rules != QLatin1String("tercios")) {
        *error = QStringLiteral("unknown ruleset '%1' (tvbd, tercios)").arg(rules);
        return false;
    }
    const GameData& d = engine.data();
    GameState base;
    if (!engine.newGame(base, QStringLiteral("campaign"), GameOptions{}, seed, error))
        return false;
    const int city = d.city(QStringLiteral("leipzig")), from = d.city(QStringLiteral("torgau"));
    if (city < 0 || from < 0) {
        *error = QStringLiteral("the map has no Leipzig or Torgau");
        return false;
    }
    // An empty board in the Action Phase.
    for (UnitState& u : base.units)
        if (u.loc != kRemoved)
            u = UnitState{u.type, kPool, 0, 0};
    for (LeaderState& l : base.leaders)
        l = LeaderState{};
    base.frames.clear();
    base.frames.push_back(TurnFrame{Phase::Action, 0});
    for (int side : {kCatholic, kProtestant}) {
        for (int16_t c : base.hand[side])
            base.cardPlace[c] = CardPlace::Unplayed;
        base.hand[side].clear();
    }
    // Who may fight: nationalities with unit types and leaders.
    std::vector<int> nats[2];
    for (qsizetype n = 0; n < d.nationalities.size(); ++n) {
        bool units = false, leaders = false;
        for (const UnitType& t : d.unitTypes)
            units = units || t.nationality == n;
        for (const Leader& l : d.leaders)
            leaders = leaders || (l.nationality == n && !l.replacement && l.optionalRule.isEmpty());
        if (units && leaders)
            nats[sideIndex(d.nationalities[n].side)].push_back(static_cast<int>(n));
    }
    Rng rng(seed ^ 0x5bd1e995ULL);
    static const QRegularExpression lossRe(
        QStringLiteral("^12\\.26 (Catholic|Protestant): .*Loss Number (\\d+)$"));
    static const QRegularExpression winRe(QStringLiteral("^12\\.28 (Catholic|Protestant) wins"));
    static const QRegularExpression killRe(QStringLiteral("^12\\.41 .+ is lost$"));
    out->clear();
    for (int g = 0; g < games; ++g) {
        GameState s = base;
        s.turn = static_cast<int8_t>(1 + rng.below(14));
        const int att = rng.below(2);
        std::vector<int16_t> units[2];
        std::vector<int16_t> leaders[2];
        for (int side : {att, other(att)}) {
            const int nat = nats[side][static_cast<size_t>(rng.below(static_cast<int>(nats[side].size())))];
            const int n = 1 + rng.below(8);
            for (int k = 0; k < n; ++k) {
                // a random kind this nationality has in the pool
                std::vector<int> free;
                for (size_t u = 0; u < s.units.size(); ++u)
                    if (s.units[u].loc == kPool && d.unitTypes[s.units[u].type].nationality == nat)
                        free.push_back(static_cast<int>(u));
                if (free.empty())
                    break;
                const int u = free[static_cast<size_t>(rng.below(static_cast<int>(free.size())))];
                s.units[u].loc = static_cast<int16_t>(city);
                s.units[u].steps = static_cast<uint8_t>(rng.below(4) == 0 ? 1 : 2);
                units[side].push_back(static_cast<int16_t>(u));
            }
            std::vector<int> cand;
            for (qsizetype l = 0; l < d.leaders.size(); ++l)
                if (d.leaders[l].nationality == nat && !d.leaders[l].replacement &&
                    d.leaders[l].optionalRule.isEmpty() && s.leaders[l].status == LeaderStatus::NotEntered)
                    cand.push_back(static_cast<int>(l));
            const int nl = cand.empty() ? 0 : 1 + (rng.below(3) == 0 ? 1 : 0);
            for (int k = 0; k < nl && !cand.empty(); ++k) {
                const size_t i = static_cast<size_t>(rng.below(static_cast<int>(cand.size())));
                s.leaders[cand[i]] = LeaderState{static_cast<int16_t>(city), LeaderStatus::InPlay, 0};
                leaders[side].push_back(static_cast<int16_t>(cand[i]));
                cand.erase(cand.begin() + static_cast<std::ptrdiff_t>(i));
            }
        }
        if (units[att].empty() || units[other(att)].empty()) {
            --g; // a nationality without units in the pool: draw again
            continue;
        }
        {
            Ctx c{d, s, nullptr};
            startCombat(c, city, att, units[att], leaders[att],
                        leaders[att].empty() ? -1 : leaders[att].front(), from, false, false);
        }
        CalibrationSample smp;
        const CombatFrame& f = std::get<CombatFrame>(s.frames.back());
        smp.attackerCf = cfSum(d, s, std::vector<int>(f.attackUnits.begin(), f.attackUnits.end()));
        smp.defenderCf = cfSum(d, s, std::vector<int>(f.defendUnits.begin(), f.defendUnits.end()));
        smp.capacity[0] = lossCapacity(d, s, att);
        smp.capacity[1] = lossCapacity(d, s, other(att));
        smp.tieToAttacker = tieGoesToAttacker(d, s, f);
        smp.leaders = static_cast<int>(f.attackLeaders.size() + f.defendLeaders.size());

        // The CRT: the engine itself (no combat cards), answering every decision with its first option.
        {
            GameState crt = s;
            crt.rng.reseed(seed * 1000003ULL + static_cast<quint64>(g));
            Log log;
            for (int k = 0; k < 60 && crt.frames.size() > 1 && !crt.gameOver; ++k) {
                const auto legal = engine.legalActions(crt);
                if (legal.empty() || !engine.apply(crt, legal.front(), &log).ok)
                    break;
            }
            int found = 0;
            for (const LogLine& l : log) {
                if (const auto m = lossRe.match(l.text); m.hasMatch()) {
                    const int side = m.captured(1) == QLatin1String("Catholic") ? kCatholic : kProtestant;
                    // the Loss Number a side's roll gives is taken by the other side
                    smp.crtLoss[side == att ? 1 : 0] = m.captured(2).toInt();
                    ++found;
                } else if (killRe.match(l.text).hasMatch()) {
                    ++smp.crtLeadersLost;
                } else if (const auto w = winRe.match(l.text); w.hasMatch()) {
                    smp.crtAttackerWins =
                        (w.captured(1) == QLatin1String("Catholic") ? kCatholic : kProtestant) == att;
                }
            }
            if (found != 2) {
                *error = QStringLiteral("battle %1: the CRT did not resolve").arg(g + 1);
                return false;
            }
        }
        // The table: the same forces exported and auto-resolved.
        if (!runTable(d, s, rules, seed * 7919ULL + static_cast<quint64>(g), mapping.leaderModifier,
                      &smp.table, error))
            return false;
        out->append(smp);
    }
    return true;
}

} // namespace wp::battle
