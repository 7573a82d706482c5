// TVBD set-up steps about the armies (tvbd_recruit.h): 10.1 game size, 10.2 recruiting (16.3.2 coins),
// 16.4 the aggressive attacker's bonus units and 10.5 scouting benefit 1, as decisions of the state machine.
#include "tvbd_recruit.h"

#include "sidewords.h"

#include <QMap>

#include <algorithm>
#include <cmath>
#include <optional>

namespace wp::tactical::recruit {

namespace {

constexpr UnitType kRecruitTypes[] = {UnitType::Horse,    UnitType::LightHorse, UnitType::Dragoons,
                                      UnitType::PikeShot, UnitType::Shot,       UnitType::Rabble,
                                      UnitType::Cannon};

// 7.3.2: at most 4 Cannon; at most 2 each of Dragoons, Shot, Rabble and Light Horse; no other cap.
int typeCap(UnitType t) {
    switch (t) {
    case UnitType::Cannon:
        return 4;
    case UnitType::Dragoons:
    case UnitType::Shot:
    case UnitType::Rabble:
    case UnitType::LightHorse:
        return 2;
    default:
        return 1 << 20;
    }
}

bool coinMode(const BattleState& s) {
    return s.setup.armyCoins > 0;
}

// The letter of a side's unit ids: the initial of its name, or A / B when the initials clash.
QString sideLetter(const BattleState& s, int side) {
    const QString a = s.sideName[0].left(1).toUpper(), b = s.sideName[1].left(1).toUpper();
    if (a.isEmpty() || b.isEmpty() || a == b || !a[0].isLetter() || !b[0].isLetter())
        return side ? QStringLiteral("B") : QStringLiteral("A");
    return side ? b : a;
}

// A side's army so far: units (a Large Pike+Shot counts 2, 16.2), coins (16.3.2), types and commands.
struct Army {
    int units = 0, coins = 0;
    int count[8] = {};
    QList<int> commands; // command indexes
    QList<int> size;     // units per command, same order
    int sizeOf(int command) const {
        const qsizetype i = commands.indexOf(command);
        return i < 0 ? 0 : size[i];
    }
};

Army armyOf(const TvbdRules& r, const BattleState& s, int side) {
    Army a;
    for (qsizetype c = 0; c < s.commands.size(); ++c)
        if (s.commands[c].side == side) {
            a.commands << int(c);
            a.size << 0;
        }
    for (const Unit& u : s.units) {
        if (u.side != side)
            continue;
        const int w = u.large ? 2 : 1;
        a.units += w;
        a.coins += r.coins(u.type, u.quality, u.large);
        ++a.count[int(u.type)];
        const qsizetype i = a.commands.indexOf(u.command);
        if (i >= 0)
            a.size[i] += w;
    }
    return a;
}

// Whether the army can still be made a legal list (7.3.2, 7.3.3) with what is left: every command brought
// to 3 units and at least one Cannon, with the cheapest units the list still allows (Cannon and Rabble at
// 2 coins, then inferior units at 3; one unit each when counting units).
bool completable(const Army& a, int unitsLeft, int coinsLeft, bool coins) {
    if (unitsLeft < 0 || coinsLeft < 0)
        return false;
    int fill = 0, n = 0, commanders = 0;
    bool room = false;
    for (int sz : a.size) {
        fill += std::max(0, 3 - sz);
        room = room || sz < 8;
    }
    if (a.commands.isEmpty()) { // a first command: its Commander and two more
        commanders = 1;
        fill = 2;
        room = true;
    }
    const bool needCannon = a.count[int(UnitType::Cannon)] == 0;
    if (needCannon && fill == 0 && !room)
        return false;
    n = fill + (needCannon && fill == 0 ? 1 : 0);
    if (!coins)
        return n + commanders <= unitsLeft;
    const int cheap = (4 - a.count[int(UnitType::Cannon)]) + (2 - a.count[int(UnitType::Rabble)]);
    const int cost = 4 * commanders + 2 * std::min(n, cheap) + 3 * std::max(0, n - cheap);
    return cost <= coinsLeft;
}

int unitsBudget(const BattleState& s, int side) {
    return s.setup.armyUnits > 0 ? s.setup.armyUnits + s.setup.bonusUnits[side] : 1 << 20;
}
int coinsBudget(const BattleState& s, int side) {
    return s.setup.armyCoins > 0 ? s.setup.armyCoins + s.setup.bonusCoins[side] : 1 << 20;
}

QList<Quality> qualities(const BattleState& s, UnitType t) {
    if (t == UnitType::Rabble || t == UnitType::Cannon)
        return {Quality::Raw};
    // Unit quality is an advanced rule that goes with coins (16.3): by units every unit is ordinary.
    if (!coinMode(s))
        return {Quality::Ordinary};
    return {Quality::Superior, Quality::Ordinary, Quality::Inferior};
}

TAction recruitAction(int command, UnitType t, Quality q, bool large) {
    TAction a;
    a.kind = TAction::Recruit;
    a.target = command;
    a.recruitType = t;
    a.quality = q;
    a.large = large;
    return a;
}

// The problem of recruiting (a unit into a command, or with target -1 a new command and its Commander),
// or empty. `bonus`: the 16.4 bonus units (Pike+Shot and Horse only, within the bonus left).
QString recruitProblem(const TvbdRules& r, const BattleState& s, const TAction& a, bool bonus) {
    const int side = s.stepSide;
    Army army = armyOf(r, s, side);
    int weight = 1, cost = 0;
    if (a.target < 0) {
        if (bonus)
            return QStringLiteral("16.4 the bonus units are Pike+Shot and Horse in the commands");
        cost = r.coins(UnitType::Commander, Quality::Ordinary, false);
        army.commands << -1;
        army.size << 1;
        ++army.count[int(UnitType::Commander)];
    } else {
        if (a.target >= s.commands.size() || s.commands[a.target].side != side)
            return QStringLiteral("not a command of %1").arg(s.sideName[side]);
        const UnitType t = a.recruitType;
        if (t == UnitType::Commander)
            return QStringLiteral("7.3.2 each command has exactly one Commander (recruit command)");
        if (!qualities(s, t).contains(a.quality))
            return coinMode(s) ? QStringLiteral("16.3 Rabble and Cannon are raw, other units superior, "
                                                "ordinary or inferior")
                               : QStringLiteral("16.3 unit quality goes with coins: by units every unit is "
                                                "ordinary (Rabble and Cannon raw)");
        if (a.large && t != UnitType::PikeShot)
            return QStringLiteral("16.2 only Pike+Shot can be large");
        if (t == UnitType::LightHorse && s.noLightHorse[side])
            return lightHorseBarred(s, side);
        if (bonus && t != UnitType::PikeShot && t != UnitType::Horse)
            return QStringLiteral("16.4 all bonus units must be Pike+Shot and/or Horse");
        weight = a.large ? 2 : 1;
        cost = r.coins(t, a.quality, a.large);
        if (army.count[int(t)] + 1 > typeCap(t))
            return QStringLiteral("7.3.2 at most %1 %2").arg(typeCap(t)).arg(typeLabel(t));
        const qsizetype i = army.commands.indexOf(a.target);
        if (army.size[i] + weight > 8)
            return QStringLiteral("7.3.3 a command has 3 to 8 units with its Commander");
        army.size[i] += weight;
        ++army.count[int(t)];
    }
    army.units += weight;
    army.coins += cost;
    if (bonus) {
        if ((coinMode(s) ? cost : weight) > s.setup.bonusLeft)
            return QStringLiteral("16.4 only %1 bonus %2 left")
                .arg(s.setup.bonusLeft)
                .arg(coinMode(s) ? QStringLiteral("coins") : QStringLiteral("units"));
        return {};
    }
    if (army.units > unitsBudget(s, side))
        return QStringLiteral("10.1 the army would have %1 units, over the %2 agreed")
            .arg(army.units)
            .arg(unitsBudget(s, side));
    if (army.coins > coinsBudget(s, side))
        return QStringLiteral("16.3.2 the army would cost %1 coins, over the %2 agreed")
            .arg(army.coins)
            .arg(coinsBudget(s, side));
    if (!completable(army, unitsBudget(s, side) - army.units, coinsBudget(s, side) - army.coins, coinMode(s)))
        return QStringLiteral("7.3.2, 7.3.3 the army could no longer be completed (each command 3 units, a "
                              "Cannon) within the %1 agreed")
            .arg(coinMode(s) ? QStringLiteral("coins") : QStringLiteral("units"));
    return {};
}

QList<TAction> recruitActions(const TvbdRules& r, const BattleState& s, bool bonus) {
    QList<TAction> cands;
    if (!bonus)
        cands << recruitAction(-1, UnitType::Commander, Quality::Ordinary, false);
    for (qsizetype c = 0; c < s.commands.size(); ++c) {
        if (s.commands[c].side != s.stepSide)
            continue;
        for (UnitType t : kRecruitTypes)
            for (Quality q : qualities(s, t)) {
                cands << recruitAction(int(c), t, q, false);
                if (t == UnitType::PikeShot)
                    cands << recruitAction(int(c), t, q, true);
            }
    }
    QList<TAction> out;
    for (const TAction& a : cands)
        if (recruitProblem(r, s, a, bonus).isEmpty())
            out << a;
    return out;
}

// 10.1 the game sizes offered: each table with the fewest, the suggested and the most units, or coins.
QList<TAction> sizeActions(const TvbdRules& r) {
    QList<TAction> out;
    QStringList tables = r.gameSizes.keys();
    std::sort(tables.begin(), tables.end());
    for (const QString& t : tables) {
        const GameSizeInfo g = r.gameSizes.value(t);
        for (bool coins : {false, true}) {
            QList<int> amounts = coins ? QList<int>{g.coinsMin, 4 * g.suggested, g.coinsMax}
                                       : QList<int>{g.unitsMin, g.suggested, g.unitsMax};
            amounts.erase(std::unique(amounts.begin(), amounts.end()), amounts.end());
            for (int n : amounts) {
                TAction a;
                a.kind = TAction::Size;
                a.table = t;
                a.amount = n;
                a.coins = coins;
                out << a;
            }
        }
    }
    return out;
}

QString sizeProblem(const TvbdRules& r, const TAction& a) {
    if (!r.gameSizes.contains(a.table) || !r.tables.contains(a.table))
        return QStringLiteral("10.1 '%1' is not a table (small, big, shallowSmall, giant)").arg(a.table);
    const GameSizeInfo g = r.gameSizes.value(a.table);
    const int lo = a.coins ? g.coinsMin : g.unitsMin, hi = a.coins ? g.coinsMax : g.unitsMax;
    if (a.amount < lo || a.amount > hi)
        return QStringLiteral("%1 a %2 game has %3-%4 %5 a side")
            .arg(a.coins ? QStringLiteral("16.3.2") : QStringLiteral("10.1"), a.table)
            .arg(lo)
            .arg(hi)
            .arg(a.coins ? QStringLiteral("coins") : QStringLiteral("units"));
    return {};
}

QString sizeText(const BattleState& s) {
    return QStringLiteral("a %1 game (%2 x %3 TUM table), %4 %5 a side")
        .arg(s.sizeName)
        .arg(s.tableW)
        .arg(s.tableD)
        .arg(s.setup.armyCoins > 0 ? s.setup.armyCoins : s.setup.armyUnits)
        .arg(s.setup.armyCoins > 0 ? QStringLiteral("coins") : QStringLiteral("units"));
}

void setSize(const TvbdRules& r, BattleState& s, const TAction& a) {
    s.sizeName = a.table;
    s.tableW = r.tables[a.table][0];
    s.tableD = r.tables[a.table][1];
    s.centreW = r.tables[a.table][2];
    s.setup.armyUnits = a.coins ? 0 : a.amount;
    s.setup.armyCoins = a.coins ? a.amount : 0;
}

// The order of battle of a side, command by command ("I-1: Commander, 3 Horse, Cannon").
QString orderOfBattle(const BattleState& s, int side) {
    QStringList out;
    for (qsizetype c = 0; c < s.commands.size(); ++c) {
        if (s.commands[c].side != side)
            continue;
        QMap<QString, int> n;
        QStringList order{typeLabel(UnitType::Commander)};
        n[order.first()] = 1;
        for (const Unit& u : s.units)
            if (u.command == int(c) && u.type != UnitType::Commander) {
                const QString label = (u.large ? QStringLiteral("Large ") : QString()) + typeLabel(u.type) +
                                      (u.quality == Quality::Superior   ? QStringLiteral(" (superior)")
                                       : u.quality == Quality::Inferior ? QStringLiteral(" (inferior)")
                                                                        : QString());
                if (!n.contains(label))
                    order << label;
                ++n[label];
            }
        QStringList parts;
        for (const QString& l : order)
            parts << (n[l] > 1 ? QStringLiteral("%1 %2").arg(n[l]).arg(l) : l);
        out << QStringLiteral("%1: %2").arg(s.commands[c].id, parts.join(QStringLiteral(", ")));
    }
    return out.join(QStringLiteral("; "));
}

void addUnit(const TvbdRules& r, BattleState& s, int side, int command, UnitType t, Quality q, bool large,
             const QString& id) {
    Unit u;
    u.id = id;
    u.name = (large ? QStringLiteral("Large ") : QString()) + typeLabel(t);
    u.side = side;
    u.type = t;
    u.quality = t == UnitType::Commander ? Quality::Ordinary : q;
    u.large = large;
    u.command = command;
    const TypeInfo& ti = r.type(t);
    u.pose = Pose{{0, 0}, side == 0 ? 90.0 : 270.0, ti.w, large ? 2 * ti.d : ti.d};
    u.startResolve = r.startResolve(t, u.quality, large);
    u.resolve = u.startResolve;
    u.limbered = false;
    u.status = UnitStatus::Undeployed; // 10.6 deployed later
    const int w = large ? 2 : 1;
    s.commands[command].initialUnits += w;
    s.originalUnits[side] += w;
    if (t == UnitType::Commander)
        s.commands[command].commander = int(s.units.size());
    s.units << u;
}

// A line about a side's recruiting: into the log, or while the orders of battle are secret (10.2) into the
// side's written-down order of battle, revealed when both sides have recruited.
void noteOf(BattleState& s, int side, const QString& line) {
    if (orderOfBattleSecret(s))
        s.setup.secretLog[side] << line;
    else
        s.note(line);
}

void doRecruit(const TvbdRules& r, BattleState& s, const TAction& a, bool bonus) {
    const int side = s.stepSide;
    const QString letter = sideLetter(s, side);
    if (a.target < 0) {
        int k = 0;
        for (const Command& c : s.commands)
            k += c.side == side;
        Command c;
        c.id = QStringLiteral("%1-%2").arg(letter).arg(k + 1);
        c.name = QStringLiteral("%1 command %2").arg(s.sideName[side]).arg(k + 1);
        c.side = side;
        s.commands << c;
        addUnit(r, s, side, int(s.commands.size()) - 1, UnitType::Commander, Quality::Ordinary, false,
                QStringLiteral("%1C%2").arg(letter).arg(k + 1));
        noteOf(s, side,
               QStringLiteral("10.2 %1 command %2 with %3 Commander %4")
                   .arg(subject(s.sideName[side], "forms"), c.id, its(s.sideName[side]), s.units.last().id));
        return;
    }
    int n = 0;
    for (const Unit& u : s.units)
        n += u.side == side && u.type != UnitType::Commander;
    QString id;
    do
        id = QStringLiteral("%1%2").arg(letter).arg(++n);
    while (s.indexOf(id) >= 0);
    addUnit(r, s, side, a.target, a.recruitType, a.quality, a.large, id);
    const Unit& u = s.units.last();
    const int cost = r.coins(u.type, u.quality, u.large);
    if (bonus)
        s.setup.bonusLeft -= coinMode(s) ? cost : (u.large ? 2 : 1);
    noteOf(s, side,
           QStringLiteral("%1 %2 %3 (%4%5, %6 coins) into %7%8")
               .arg(bonus ? QStringLiteral("16.4") : QStringLiteral("10.2"),
                    subject(s.sideName[side], "recruits"), u.id, u.name,
                    QStringLiteral(", ") + qualityName(u.quality))
               .arg(cost)
               .arg(s.commands[a.target].id,
                    bonus ? QStringLiteral(" (bonus; %1 left)").arg(s.setup.bonusLeft) : QString()));
}

// 10.5 benefit 1: the units a side may move to another of its commands (not a Commander, each unit once, the
// old command keeping 3 units and the new one at most 8).
QList<TAction> organiseActions(const TvbdRules& r, const BattleState& s) {
    QList<TAction> out;
    const Army army = armyOf(r, s, s.stepSide);
    for (qsizetype i = 0; i < s.units.size(); ++i) {
        const Unit& u = s.units[i];
        const int w = u.large ? 2 : 1;
        if (u.side != s.stepSide || u.type == UnitType::Commander || s.setup.reassigned.contains(int(i)) ||
            army.sizeOf(u.command) - w < 3)
            continue;
        for (int c : army.commands)
            if (c != u.command && army.sizeOf(c) + w <= 8) {
                TAction a;
                a.kind = TAction::Assign;
                a.unit = int(i);
                a.target = c;
                out << a;
            }
    }
    return out;
}

QString stageRule(const BattleState& s) {
    switch (s.setup.stage) {
    case SetupStage::GameSize:
        return QStringLiteral("10.1");
    case SetupStage::Recruit:
        return QStringLiteral("10.2");
    case SetupStage::Aggressive:
        return QStringLiteral("16.4");
    default:
        return QStringLiteral("10.5");
    }
}

} // namespace

bool beginArmies(const TvbdRules& r, BattleState& s) {
    (void)r;
    if (s.setup.gameSizeByPlayers && !s.setup.sizeAgreed) {
        s.step = Step::Setup;
        s.setup.stage = SetupStage::GameSize;
        s.stepSide = 0;
        const bool second = pluralName(s.sideName[1]);
        s.note(QStringLiteral("10.1 game size: %1 the table and the army size (units, or coins 16.3.2); "
                              "%2 or %3 the final proposal")
                   .arg(subject(s.sideName[0], "proposes"), subject(s.sideName[1], "agrees"),
                        conjugate("makes", second)));
        return true;
    }
    for (int side = 0; side < 2; ++side)
        if (s.setup.recruit && !s.setup.recruited[side]) {
            s.step = Step::Setup;
            s.setup.stage = SetupStage::Recruit;
            s.stepSide = side;
            s.note(QStringLiteral("10.2 %1 %2 army: %3 %4, organised in commands of 3-8 units each "
                                  "with one Commander (7.3.2, 7.3.3)")
                       .arg(subject(s.sideName[side], "recruits"), its(s.sideName[side]))
                       .arg(coinMode(s) ? s.setup.armyCoins : s.setup.armyUnits)
                       .arg(coinMode(s) ? QStringLiteral("coins (16.3.2)") : QStringLiteral("units")));
            return true;
        }
    return false;
}

bool beginAggressive(const TvbdRules& r, BattleState& s) {
    (void)r;
    if (!s.setup.aggressiveOffered || s.setup.aggressiveDone)
        return false;
    s.step = Step::Setup;
    s.setup.stage = SetupStage::Aggressive;
    s.stepSide = s.attacker;
    return true;
}

bool beginOrganise(BattleState& s) {
    if (!s.setup.recruit || s.setup.organiseDone)
        return false;
    const int side = s.setup.scoutDelays[0] > 0 ? 0 : s.setup.scoutDelays[1] > 0 ? 1 : -1;
    if (side < 0) {
        s.setup.organiseDone = true;
        return false;
    }
    s.step = Step::Setup;
    s.setup.stage = SetupStage::Organise;
    s.stepSide = side;
    return true;
}

QList<TAction> actions(const TvbdRules& r, const BattleState& s) {
    QList<TAction> out;
    switch (s.setup.stage) {
    case SetupStage::GameSize:
        if (s.stepSide == 1) {
            TAction agree;
            agree.kind = TAction::Agree;
            out << agree;
        }
        out << sizeActions(r);
        return out;
    case SetupStage::Recruit:
        out = recruitActions(r, s, false);
        if (armyListProblemsWithBudget(r, s, s.stepSide).isEmpty() &&
            !armyOf(r, s, s.stepSide).commands.isEmpty())
            out << TAction{};
        return out;
    case SetupStage::Aggressive:
        if (!s.setup.aggressiveTaken) {
            BattleState t = s; // taking it is offered when a bonus unit could join a command
            t.setup.aggressiveTaken = true;
            t.setup.bonusLeft = (coinMode(s) ? 4 : 1) * r.gameSizes.value(s.sizeName).bonus;
            if (!recruitActions(r, t, true).isEmpty()) {
                TAction take;
                take.kind = TAction::Aggressive;
                out << take;
            }
        } else {
            out = recruitActions(r, s, true);
        }
        out << TAction{};
        return out;
    case SetupStage::Organise:
        out = organiseActions(r, s);
        out << TAction{};
        return out;
    default:
        return out;
    }
}

bool apply(const TvbdRules& r, BattleState& s, const TAction& a, QString* why, bool* done) {
    auto fail = [&](const QString& w) {
        if (why)
            *why = w;
        return false;
    };
    *done = false;
    const int side = s.stepSide;
    const QString who = s.sideName[side];
    auto recruitOne = [&](bool bonus) {
        const QString p = recruitProblem(r, s, a, bonus);
        if (!p.isEmpty())
            return fail(p);
        doRecruit(r, s, a, bonus);
        return true;
    };
    switch (s.setup.stage) {
    case SetupStage::GameSize: {
        if (a.kind == TAction::Agree) {
            if (side != 1)
                return fail(QStringLiteral("10.1 %1 first").arg(subject(s.sideName[0], "proposes")));
            s.note(QStringLiteral("10.1 %1: %2").arg(subject(who, "agrees"), sizeText(s)));
        } else if (a.kind == TAction::Size) {
            const QString p = sizeProblem(r, a);
            if (!p.isEmpty())
                return fail(p);
            setSize(r, s, a);
            if (side == 0) {
                s.note(QStringLiteral("10.1 %1 %2").arg(subject(who, "proposes"), sizeText(s)));
                s.stepSide = 1;
                return true;
            }
            s.note(QStringLiteral("10.1 %1 %2 instead: agreed (the second proposal is final)")
                       .arg(subject(who, "proposes"), sizeText(s)));
        } else {
            return fail(side == 0 ? QStringLiteral("10.1 propose a game size (size TABLE units|coins N)")
                                  : QStringLiteral("10.1 agree, or propose another game size"));
        }
        s.setup.sizeAgreed = true;
        *done = true;
        return true;
    }
    case SetupStage::Recruit: {
        if (a.kind == TAction::End) {
            const QStringList p = armyListProblemsWithBudget(r, s, side);
            if (armyOf(r, s, side).commands.isEmpty())
                return fail(QStringLiteral("7.3.3 an army has at least one command"));
            if (!p.isEmpty())
                return fail(p.join(QStringLiteral("; ")));
            const Army army = armyOf(r, s, side);
            noteOf(s, side,
                   QStringLiteral("10.2 %1 recruited %2 units (%3 coins): %4")
                       .arg(subject(who, "has"))
                       .arg(army.units)
                       .arg(army.coins)
                       .arg(orderOfBattle(s, side)));
            s.setup.recruited[side] = true;
            if (orderOfBattleSecret(s)) {
                s.note(QStringLiteral("10.2 %1 written down %2 order of battle (secret until both "
                                      "armies are recruited)")
                           .arg(subject(who, "has"), its(who)));
            } else { // both written down: revealed, side 0's first
                s.note(QStringLiteral("10.2 both armies are recruited: the orders of battle are revealed"));
                for (QStringList& lines : s.setup.secretLog) {
                    s.log << lines;
                    lines.clear();
                }
            }
            *done = true;
            return true;
        }
        if (a.kind != TAction::Recruit)
            return fail(QStringLiteral("10.2 recruit a unit or a command, or end"));
        return recruitOne(false);
    }
    case SetupStage::Aggressive: {
        if (a.kind == TAction::End) {
            s.note(s.setup.aggressiveTaken
                       ? QStringLiteral("16.4 %1 taken %2 bonus units: %3")
                             .arg(subject(who, "has"), its(who), orderOfBattle(s, side))
                       : QStringLiteral("16.4 %1 (attacker) %2 no bonus units: the time limit stays %3 turns")
                             .arg(who, verbFor(who, "takes"))
                             .arg(s.turnLimit));
            s.setup.aggressiveDone = true;
            *done = true;
            return true;
        }
        if (a.kind == TAction::Aggressive) {
            if (s.setup.aggressiveTaken || !actions(r, s).contains(a))
                return fail(QStringLiteral("16.4 the bonus units cannot be taken now"));
            const int bonus = r.gameSizes.value(s.sizeName).bonus;
            s.setup.aggressiveTaken = true;
            s.turnLimit = r.turnLimitAggressive;
            if (coinMode(s))
                s.setup.bonusCoins[side] = s.setup.bonusLeft = 4 * bonus;
            else
                s.setup.bonusUnits[side] = s.setup.bonusLeft = bonus;
            s.note(QStringLiteral("16.4 %1 (attacker) %2 %3 bonus %4 of Pike+Shot and Horse: the time limit "
                                  "is %5 turns")
                       .arg(who, verbFor(who, "takes"))
                       .arg(s.setup.bonusLeft)
                       .arg(coinMode(s) ? QStringLiteral("coins") : QStringLiteral("units"))
                       .arg(s.turnLimit));
            return true;
        }
        if (a.kind != TAction::Recruit || !s.setup.aggressiveTaken)
            return fail(QStringLiteral("16.4 take the bonus units (aggressive), or end"));
        return recruitOne(true);
    }
    case SetupStage::Organise: {
        if (a.kind == TAction::End) {
            s.note(s.setup.organising ? QStringLiteral("10.5 %1 organised %2 commands: %3")
                                            .arg(subject(who, "has"), its(who), orderOfBattle(s, side))
                                      : QStringLiteral("10.5 %1 %2 commands (benefit 1 not used)")
                                            .arg(subject(who, "keeps"), its(who)));
            s.setup.organiseDone = true;
            *done = true;
            return true;
        }
        if (a.kind != TAction::Assign || !organiseActions(r, s).contains(a))
            return fail(
                QStringLiteral("10.5 move a unit (not a Commander, each once) to another command: the "
                               "old one keeps 3 units, the new one has at most 8; or end"));
        if (!s.setup.organising) {
            s.setup.organising = true;
            --s.setup.scoutDelays[side];
            s.note(
                QStringLiteral("10.5 %1 scouting benefit 1: %2 %3 commands after seeing the "
                               "enemy's (%4 left)")
                    .arg(subject(who, "uses"),
                         pluralName(who) ? QStringLiteral("they organise") : QStringLiteral("it organises"),
                         its(who), counted(s.setup.scoutDelays[side], "point")));
        }
        Unit& u = s.units[a.unit];
        const int w = u.large ? 2 : 1;
        s.commands[u.command].initialUnits -= w;
        s.commands[a.target].initialUnits += w;
        s.note(QStringLiteral("10.5 %1 %2 from %3 to %4")
                   .arg(subject(who, "moves"), u.id, s.commands[u.command].id, s.commands[a.target].id));
        u.command = a.target;
        s.setup.reassigned << a.unit;
        return true;
    }
    default:
        return fail(QStringLiteral("not a decision about the armies"));
    }
}

QString prompt(const TvbdRules& r, const BattleState& s) {
    const QString who = s.sideName[s.stepSide];
    switch (s.setup.stage) {
    case SetupStage::GameSize:
        return s.stepSide == 0
                   ? QStringLiteral("10.1 %1: propose the game size (table; units or coins)").arg(who)
                   : QStringLiteral("10.1 %1: agree to %2, or make the final proposal").arg(who, sizeText(s));
    case SetupStage::Recruit:
        return QStringLiteral("10.2 %1: recruit a unit or a command (%2 of %3 %4 spent), or end")
            .arg(who)
            .arg(coinMode(s) ? armyOf(r, s, s.stepSide).coins : s.originalUnits[s.stepSide])
            .arg(coinMode(s) ? s.setup.armyCoins : s.setup.armyUnits)
            .arg(coinMode(s) ? QStringLiteral("coins") : QStringLiteral("units"));
    case SetupStage::Aggressive:
        return s.setup.aggressiveTaken
                   ? QStringLiteral("16.4 %1: recruit a bonus Pike+Shot or Horse (%2 left), or end")
                         .arg(who)
                         .arg(s.setup.bonusLeft)
                   : QStringLiteral("16.4 %1 (attacker): take the bonus units for an 8-turn time limit "
                                    "(aggressive), or end")
                         .arg(who);
    case SetupStage::Organise:
        return QStringLiteral(
                   "10.5 %1: organise the commands after seeing the enemy's (benefit 1: assign), or "
                   "end")
            .arg(who);
    default:
        return QStringLiteral("%1 %2").arg(stageRule(s), who);
    }
}

TAction choose(const TvbdRules& r, const BattleState& s, const QList<TAction>& legal) {
    if (legal.size() == 1)
        return legal.first();
    const int side = s.stepSide;
    auto find = [&](const TAction& want) -> std::optional<TAction> {
        if (legal.contains(want))
            return want;
        return std::nullopt;
    };
    switch (s.setup.stage) {
    case SetupStage::GameSize: {
        if (side == 1)
            return legal.first(); // agree
        TAction a;
        a.kind = TAction::Size;
        a.table = s.sizeName;
        a.amount = r.gameSizes.value(s.sizeName).suggested;
        return find(a).value_or(legal.first());
    }
    case SetupStage::Recruit: {
        const Army army = armyOf(r, s, side);
        const int total = coinMode(s) ? s.setup.armyCoins / 4 : s.setup.armyUnits;
        const int planned = std::max({1, (total + 7) / 8, int(std::lround(total / 6.0))});
        const int k = int(army.commands.size());
        // command i gets total / planned units, the first ones one more while the remainder lasts
        auto target = [&](int i) {
            return std::clamp(total / planned + (i < total % planned ? 1 : 0), 3, 8);
        };
        const bool full = k == 0 || army.size.last() >= target(k - 1);
        if (full && k < planned)
            if (auto a = find(recruitAction(-1, UnitType::Commander, Quality::Ordinary, false)))
                return *a;
        if (k > 0) {
            const int c = army.commands.last();
            const bool foot = (k - 1) % 3 == 1 || ((k - 1) >= 3 && (k - 1) % 2 == 1);
            bool hasCannon = false;
            for (const Unit& u : s.units)
                hasCannon = hasCannon || (u.command == c && u.type == UnitType::Cannon);
            QList<UnitType> prefs;
            if (!foot && !hasCannon && army.count[int(UnitType::Cannon)] < 2)
                prefs << UnitType::Cannon;
            prefs << (foot ? UnitType::PikeShot : UnitType::Horse)
                  << (foot ? UnitType::Horse : UnitType::PikeShot);
            if (!full || k >= planned)
                for (UnitType t : prefs)
                    if (auto a = find(recruitAction(
                            c, t, t == UnitType::Cannon ? Quality::Raw : Quality::Ordinary, false)))
                        return *a;
        }
        if (army.count[int(UnitType::Cannon)] == 0)
            for (const TAction& a : legal)
                if (a.kind == TAction::Recruit && a.recruitType == UnitType::Cannon)
                    return a;
        if (legal.last().kind == TAction::End)
            return legal.last();
        for (const TAction& a : legal) // bring the commands to 3 units with the cheapest units
            if (a.kind == TAction::Recruit && a.target >= 0 && army.sizeOf(a.target) < 3)
                return a;
        return legal.first();
    }
    case SetupStage::Aggressive:
        for (const TAction& a : legal)
            if (a.kind == TAction::Aggressive)
                return a;
        for (const TAction& a : legal) // ordinary Pike+Shot and Horse, alternately
            if (a.kind == TAction::Recruit && a.quality == Quality::Ordinary && !a.large &&
                a.recruitType == (s.setup.bonusLeft % 2 ? UnitType::Horse : UnitType::PikeShot))
                return a;
        for (const TAction& a : legal)
            if (a.kind == TAction::Recruit && a.quality == Quality::Ordinary && !a.large)
                return a;
        return legal.last();
    default: // Organise: the commands stay as recruited (the points go to delays)
        return legal.last();
    }
}

QString actionText(const BattleState& s, const TAction& a) {
    switch (a.kind) {
    case TAction::Size:
        return QStringLiteral("size %1 %2 %3")
            .arg(a.table, a.coins ? QStringLiteral("coins") : QStringLiteral("units"))
            .arg(a.amount);
    case TAction::Agree:
        return QStringLiteral("agree");
    case TAction::Aggressive:
        return QStringLiteral("aggressive");
    case TAction::Assign:
        return QStringLiteral("assign %1 %2")
            .arg(a.unit >= 0 && a.unit < s.units.size() ? s.units[a.unit].id : QStringLiteral("?"),
                 a.target >= 0 && a.target < s.commands.size() ? s.commands[a.target].id
                                                               : QStringLiteral("?"));
    case TAction::Recruit:
        if (a.target < 0)
            return QStringLiteral("recruit command");
        return QStringLiteral("recruit %1 %2 %3%4")
            .arg(a.target < s.commands.size() ? s.commands[a.target].id : QStringLiteral("?"),
                 typeName(a.recruitType), qualityName(a.quality),
                 a.large ? QStringLiteral(" large") : QString());
    default:
        return {};
    }
}

bool parseAction(const BattleState& s, const QStringList& w, TAction* out, QString* error) {
    // w[0] is the verb
    const QString verb = w.value(0).toLower();
    TAction a;
    auto command = [&](const QString& id) {
        for (qsizetype c = 0; c < s.commands.size(); ++c)
            if (s.commands[c].id.compare(id, Qt::CaseInsensitive) == 0)
                return int(c);
        return -1;
    };
    if (verb == QLatin1String("agree") || verb == QLatin1String("aggressive")) {
        a.kind = verb == QLatin1String("agree") ? TAction::Agree : TAction::Aggressive;
    } else if (verb == QLatin1String("size")) {
        a.kind = TAction::Size;
        bool ok = false;
        a.table = w.value(1);
        a.coins = w.value(2).toLower() == QLatin1String("coins");
        a.amount = w.value(3).toInt(&ok);
        if (w.size() != 4 || !ok || (!a.coins && w.value(2).toLower() != QLatin1String("units"))) {
            *error = QStringLiteral("size TABLE units|coins N");
            return false;
        }
    } else if (verb == QLatin1String("assign")) {
        a.kind = TAction::Assign;
        a.unit = s.indexOf(w.value(1));
        a.target = command(w.value(2));
        if (w.size() != 3 || a.unit < 0 || a.target < 0) {
            *error = QStringLiteral("assign UNIT COMMAND");
            return false;
        }
    } else if (verb == QLatin1String("recruit")) {
        a.kind = TAction::Recruit;
        if (w.size() == 2 && w[1].toLower() == QLatin1String("command")) {
            a.target = -1;
            a.recruitType = UnitType::Commander;
        } else {
            a.target = command(w.value(1));
            const auto t = typeFromName(w.value(2));
            const auto q = qualityFromName(w.value(3, QStringLiteral("ordinary")));
            a.large = w.value(4).toLower() == QLatin1String("large");
            if (w.size() < 3 || w.size() > 5 || a.target < 0 || !t || !q || (w.size() == 5 && !a.large)) {
                *error = QStringLiteral("recruit command, or recruit COMMAND TYPE [QUALITY] [large]");
                return false;
            }
            a.recruitType = *t;
            a.quality = (*t == UnitType::Rabble || *t == UnitType::Cannon) ? Quality::Raw : *q;
        }
    } else {
        *error = QStringLiteral("unknown action '%1'").arg(verb);
        return false;
    }
    *out = a;
    return true;
}

} // namespace wp::tactical::recruit
