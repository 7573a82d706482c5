// Linked battles (issue 12, docs/linked-battles.md): the battles= option, the engine's stop after both
// sides' combat cards (12.23) with the tabletop result as the decision, then 12.31 losses, 12.4 leaders,
// 12.28 winner and 12.5 retreat as after a CRT result; the result mapping of model/battle/linked.
#include "rules_fixture.h"

#include "battle/export.h"
#include "battle/linked.h"
#include "data/datadir.h"
#include "rules/game.h"
#include "rules/invariants.h"
#include "save/pbem.h"
#include "save/savefile.h"
#include "tactical/battle.h"
#include "tactical/tactical_game.h"
#include "tactical/tercios.h"
#include "tactical/tvbd.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QProcess>
#include <QRegularExpression>
#include <QTemporaryDir>

#include <algorithm>
#include <cmath>
#include <functional>

using namespace wp;
using namespace wp::rules;
using namespace wp::rules::test;

namespace {

QString unitList(const std::vector<int16_t>& units) {
    QStringList p;
    for (int16_t u : units)
        p << QStringLiteral("u%1").arg(u);
    return p.join(QLatin1Char(' '));
}

GameOptions battlesOption(const QString& value) {
    GameOptions o;
    QString error;
    if (!setOption(o, QStringLiteral("battles=") + value, &error))
        qFatal("%s", qPrintable(error));
    return o;
}

int lossCap(const Rules& f, const std::vector<int16_t>& units) {
    int cap = 0;
    for (int16_t u : units)
        cap += f.d().unitTypes[f.s.units[u].type].lf * f.s.units[u].steps;
    return cap;
}

// The battle on top of `s` fought "on screen" as the tactical window fights it (views/tacticalsession.cpp):
// the exported scenario read back from its JSON, the battle seed, then each action in turn — the tactical
// side `computer` (0 the attacker, 1 the defender, -1 none) chosen by the policy `policy` with its
// policyMoveSeed and marked so; the other side by a player who types the policy's choice as text (parsed,
// then applied: the first legal action whose text applies when that one does not). With `handDice` the player
// rolls his dice by hand on his first rolling action (sixes, as many as it rolls).
template <class State, class Engine, class Choose>
battle::TableRecord fightOnScreen(const Engine& engine, State st, battle::TableRecord r, int computer,
                                  bool handDice, const QString& policy, Choose choose) {
    st.rng.reseed(r.seed);
    st.note(QStringLiteral("seed %1").arg(r.seed));
    engine.start(st);
    if (computer >= 0)
        r.computer[computer] = true;
    bool rolledByHand = false;
    for (int k = 0; k < 20000 && !st.over(); ++k) {
        const int actor = engine.actor(st);
        wp::rules::Rng rng(battle::policyMoveSeed(r.seed, k));
        const auto chosen = choose(engine, st, rng);
        battle::TableMove m;
        if (actor == computer) {
            m = {actionText(st, chosen), {}, policy};
            if (!engine.apply(st, chosen))
                qFatal("the policy chose an illegal action");
        } else {
            auto tryText = [&](const QString& text) {
                std::remove_cv_t<decltype(chosen)> a;
                QString why;
                State trial = st;
                const bool hand = handDice && !rolledByHand;
                if (hand)
                    trial.scripted = QList<int>(12, 6);
                if (!parseAction(st, text, &a, &why) || !engine.apply(trial, a, &why))
                    return false;
                const int used = hand ? 12 - int(trial.scripted.size()) : 0;
                trial.scripted.clear();
                m = {text, QList<int>(used, 6), {}};
                rolledByHand = rolledByHand || used > 0;
                st = trial;
                return true;
            };
            if (!tryText(actionText(st, chosen))) {
                bool ok = false;
                for (const auto& a : engine.legalActions(st))
                    if ((ok = tryText(actionText(st, a))))
                        break;
                if (!ok)
                    qFatal("no legal action applies through its text");
            }
        }
        r.moves << m;
    }
    return r;
}

// The same for the battle on top of the campaign state `s`, in its ruleset; `policy` ("simple",
// "tactical") for TVBD, Tercios' is the simple policy.
battle::TableRecord fightOnScreen(const GameData& d, const GameState& s, int computer, bool handDice = false,
                                  const QString& policy = QStringLiteral("simple")) {
    const auto* f = std::get_if<CombatFrame>(&s.frames.back());
    battle::TableRecord r;
    r.by = QStringLiteral("screen");
    r.rules = f->table == kBattlesTercios ? QStringLiteral("tercios") : QStringLiteral("tvbd");
    r.seed = battle::linkedBattleSeed(s);
    QJsonObject scenario;
    QString error;
    if (!battle::exportLinked(d, s, r.rules, r.seed, &scenario, &error))
        qFatal("%s", qPrintable(error));
    r.scenario = battle::scenarioHash(scenario);
    const QJsonObject o = QJsonDocument::fromJson(QJsonDocument(scenario).toJson()).object();
    if (r.rules == QLatin1String("tvbd")) {
        const tactical::TvbdRules* rules = tactical::defaultTvbdRules(&error);
        tactical::BattleState st;
        if (!rules || !tactical::scenarioFromJson(o, QStringLiteral("test"), *rules, &st, &error))
            qFatal("%s", qPrintable(error));
        const tactical::TvbdEngine engine(*rules);
        const tactical::Policy p = *tactical::policyFromName(policy);
        return fightOnScreen(engine, st, r, computer, handDice, policy,
                             [p](const tactical::TvbdEngine& e, const tactical::BattleState& b, Rng& rng) {
                                 return tactical::choosePolicyAction(e, b, p, rng);
                             });
    }
    const tactical::TerciosRules* rules = tactical::defaultTerciosRules(&error);
    tactical::TerciosState st;
    if (!rules || !tactical::terciosScenarioFromJson(o, QStringLiteral("test"), *rules, &st, &error))
        qFatal("%s", qPrintable(error));
    const tactical::TerciosEngine engine(*rules);
    return fightOnScreen(engine, st, r, computer, handDice, QStringLiteral("simple"),
                         [](const tactical::TerciosEngine& e, const tactical::TerciosState& b, Rng& rng) {
                             return tactical::chooseTerciosAction(e, b, false, rng);
                         });
}

// A new PBEM game (the campaign, sealed dice, the host the Catholic) with `option`, started in two session
// directories: the host's start file, the guest's answer, imported by the host.
void startPbem(const QString dirs[2], const QString& option) {
    QString error;
    QByteArray startFile, joinFile;
    save::PbemSession host(rulesData());
    QVERIFY2(host.create(QStringLiteral("campaign"), {option}, kCatholic, save::DiceMode::Sealed, &startFile,
                         &error),
             qPrintable(error));
    QVERIFY(host.saveTo(dirs[0], &error));
    save::PbemSession guest(rulesData());
    QVERIFY2(guest.join(startFile, "start.pbem", &joinFile, &error), qPrintable(error));
    QVERIFY(guest.saveTo(dirs[1], &error));
    save::PbemSession h(rulesData());
    QVERIFY(h.loadFrom(dirs[0], &error));
    QVERIFY2(h.importFile(joinFile, "join.pbem", &error), qPrintable(error));
    QVERIFY(h.saveTo(dirs[0], &error));
}

// The campaign with `battles` and `seed` played at random (the aggressive policy) until the first table
// result is the decision: whether it is.
bool playToTheTable(Game& g, const QString& battles, quint64 seed) {
    QString error;
    if (!g.start(QStringLiteral("campaign"), battlesOption(battles), seed, &error))
        return false;
    Rng pick(seed);
    for (int i = 0; i < 5000 && !g.state().gameOver && !g.prompt().contains("battle-result"); ++i) {
        const auto legal = g.legalActions();
        if (!g.play(legal[chooseRandomAction(g.data(), g.state(), legal, RandomPolicy::Aggressive, pick)]).ok)
            return false;
    }
    return g.prompt().contains("battle-result");
}

// westphalia-cli with `args` on the data directory `dataDir` (WESTPHALIA_DATA; "" the default): its output
// and error text; its exit code in *code.
QString runCliIn(const QString& dataDir, const QStringList& args, int* code) {
    QProcess p;
    if (!dataDir.isEmpty()) {
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("WESTPHALIA_DATA"), dataDir);
        p.setProcessEnvironment(env);
    }
    p.start(QStringLiteral(WESTPHALIA_CLI), args);
    p.waitForFinished(120000);
    *code = p.exitCode();
    return QString::fromUtf8(p.readAllStandardOutput() + p.readAllStandardError());
}

QString runCli(const QStringList& args, int* code) {
    return runCliIn({}, args, code);
}

// A copy of the data directory's JSON files (maps/, cards/, scenarios/, resources/tactical/) in `to`, as they
// are or (`compact`) written again as compact JSON: the same content in another layout.
bool copyDataDir(const QString& to, bool compact) {
    const QString source = wp::findDataDir();
    for (const char* name : {"maps", "cards", "scenarios", "resources/tactical"}) {
        const QString sub = QString::fromLatin1(name);
        if (!QDir().mkpath(to + "/" + sub))
            return false;
        for (const QString& file : QDir(source + "/" + sub).entryList({"*.json"}, QDir::Files)) {
            const QString from = source + "/" + sub + "/" + file, target = to + "/" + sub + "/" + file;
            if (!compact) {
                if (!QFile::copy(from, target))
                    return false;
                continue;
            }
            QFile in(from), out(target);
            if (!in.open(QIODevice::ReadOnly) || !out.open(QIODevice::WriteOnly) ||
                out.write(QJsonDocument::fromJson(in.readAll()).toJson(QJsonDocument::Compact)) < 0)
                return false;
        }
    }
    return true;
}

// The result's actions with the record attached to the first ("battle-result ... @...").
QStringList withRecord(const GameData& d, const battle::LinkedResult& r, const battle::TableRecord& record) {
    QStringList texts = r.actions(d);
    texts.front() += QStringLiteral(" @") + battle::encodeRecord(record);
    return texts;
}

// The result of a record entered in the game with the record attached, and confirmed.
void enterAndConfirm(Game& g, const battle::RecordCheck& check, const battle::TableRecord& record) {
    for (const QString& a : withRecord(g.data(), check.expected, record))
        QVERIFY2(g.play(a).ok, qPrintable(a.left(60)));
    QVERIFY(g.play(QStringLiteral("battle confirm")).ok);
}

// `g` saved and read back (the save's text, replayed) into *r: the same game.
void reloaded(const Game& g, const QString& name, Game* r) {
    QString error;
    const auto back = save::parse(save::serialize(save::fromGame(g)), name, &error);
    QVERIFY2(back.has_value(), qPrintable(error));
    QVERIFY2(save::replay(*back, name, *r, &error), qPrintable(error));
    QCOMPARE(r->actions(), g.actions());
    QVERIFY(r->state() == g.state());
}

// The battle report of a campaign game started with `battles` and `seed` (battleReport of its actions).
bool campaignReport(const Game& game, const QString& battles, quint64 seed, QList<battle::BattleRecord>* out,
                    QString* error) {
    GameState start;
    return game.engine().newGame(start, QStringLiteral("campaign"), battlesOption(battles), seed, error) &&
           battle::battleReport(game.engine(), start, game.actions(), out, error);
}

// A real table's form for the units of a linked battle (docs/linked-battles.md "The form"): per side the
// first unit destroyed, the second routed (TVBD) or remaining Weary and Disordered (Tercios), the others
// remaining worn (TVBD: one resolve lost; Tercios: a Wear of 1).
QList<battle::TableUnit> sampleForm(QList<battle::TableUnit> units, const QString& rules) {
    int seen[2] = {0, 0};
    for (battle::TableUnit& u : units) {
        const int k = seen[u.side]++;
        u.fate = k == 0                                     ? QStringLiteral("destroyed")
                 : k == 1 && rules == QLatin1String("tvbd") ? QStringLiteral("routed")
                                                            : QStringLiteral("remaining");
        u.resolve = std::max(1, u.startResolve - 1);
        u.wear = k == 1 ? u.startResolve : std::min(1, u.startResolve);
        u.disordered = k == 1;
    }
    return units;
}

// The form changed after its result was entered: a remaining unit of `side` destroyed instead.
battle::TableRecord changedFate(battle::TableRecord r, int side) {
    for (battle::TableUnit& u : r.units)
        if (u.side == side && u.fate == QLatin1String("remaining")) {
            u.fate = QStringLiteral("destroyed");
            break;
        }
    return r;
}

} // namespace

class TestLinked : public QObject {
    Q_OBJECT

    struct Battle {
        std::vector<int16_t> army, defenders;
    };

    // Tilly with two Bavarian Mercenaries attacks Mansfeld's two Mercenaries at Landshut from Munich, up
    // to the point after both sides' combat cards (12.23; none played here).
    // One step of a unit of the side's army: its Loss Factor (12.31).
    static int stepLf(const Rules& f, const std::vector<int16_t>& units) {
        return f.d().unitTypes[f.s.units[units.front()].type].lf;
    }

    // A data row per ruleset ("rules": tvbd, tercios).
    static void rulesetRows() {
        QTest::addColumn<QString>("rules");
        QTest::newRow("tvbd") << QStringLiteral("tvbd");
        QTest::newRow("tercios") << QStringLiteral("tercios");
    }

    static bool landshut(Rules& f, const QString& battles, Battle* b, std::initializer_list<int> dice = {}) {
        if (!f.newGame(QStringLiteral("campaign"), battlesOption(battles)))
            return false;
        f.dice(dice);
        f.clearBoard();
        f.placeLeader("tilly", "munich");
        b->army = f.place("bavarian", UnitKind::Mercenary, "munich", 2);
        f.placeLeader("mansfeld", "landshut");
        b->defenders = f.place("protestant", UnitKind::Mercenary, "landshut", 2);
        f.setHand(kCatholic, {});
        f.setHand(kProtestant, {});
        f.setActive(kCatholic);
        return f.activate("tilly") && f.pickUp(b->army) && f.act("move landshut") &&
               f.act("attack " + unitList(b->army)) && f.act("pass") && f.act("pass");
    }

    // The files of a table result sent by e-mail: the honest one's actions and a cheating copy's, and what
    // the refusal of the cheating one says.
    struct Files {
        QStringList honest, cheat;
        QString refusal;
    };

    // A PBEM game with `option` played at random until the sender is at a table result; `make` gives the
    // honest and the cheating result. The cheating file is refused by the receiver with the reason and
    // nothing changes; the honest one is imported and its record matches at the confirmation.
    static void pbemTableBattle(const QString& option, quint64 secretsSeed, quint64 pickSeed,
                                const std::function<void(const GameState&, Files*)>& make) {
        QTemporaryDir tmp;
        const QString dirs[2] = {tmp.filePath("catholic"), tmp.filePath("protestant")};
        QString error;
        const save::TestSecretsScope secrets(secretsSeed);
        startPbem(dirs, option);
        if (QTest::currentTestFailed())
            return;
        auto atTableResult = [](const save::PbemSession& s) {
            const auto legal = s.legalActions();
            return !legal.empty() && std::all_of(legal.begin(), legal.end(), [](const Action& a) {
                return a.kind == ActionKind::Choose &&
                       (a.target == kBattleWonByAttacker || a.target == kBattleWonByDefender);
            });
        };
        auto playTexts = [&](save::PbemSession& s, const QStringList& texts) {
            for (const QString& t : texts) {
                QString attachment, why;
                splitAttachment(t, &attachment);
                const auto a = parseAction(*rulesData(), s.state(), t, &why);
                if (!a || !s.play(*a, nullptr, attachment).ok)
                    return false;
            }
            return true;
        };
        Rng pick(pickSeed);
        bool verified = false;
        for (int file = 0; file < 600 && !verified; ++file) {
            save::PbemSession a(rulesData()), b(rulesData());
            QVERIFY(a.loadFrom(dirs[0], &error) && b.loadFrom(dirs[1], &error));
            const int sender = a.myBall() ? 0 : 1;
            save::PbemSession& s = sender == 0 ? a : b;
            save::PbemSession& r = sender == 0 ? b : a;
            if (s.state().gameOver)
                break;
            bool fought = false;
            while (s.canPlay() && !fought) {
                if (!atTableResult(s)) {
                    const auto legal = s.legalActions();
                    QVERIFY(s.play(legal[chooseRandomAction(*rulesData(), s.state(), legal,
                                                            RandomPolicy::Aggressive, pick)])
                                .ok);
                    continue;
                }
                Files files;
                make(s.state(), &files);
                if (QTest::currentTestFailed())
                    return;
                // the cheating copy of the sender first
                const QString cheatDir = tmp.filePath(QStringLiteral("cheat%1").arg(file));
                QVERIFY(s.saveTo(cheatDir, &error));
                save::PbemSession cheat(rulesData());
                QVERIFY(cheat.loadFrom(cheatDir, &error));
                QVERIFY(playTexts(cheat, files.cheat));
                QByteArray bytes;
                QString name;
                QVERIFY2(cheat.exportFile(&bytes, &name, false, &error), qPrintable(error));
                const QStringList before = r.allActions();
                QVERIFY(!r.importFile(bytes, name, &error));
                QVERIFY2(error.contains(files.refusal), qPrintable(error));
                QCOMPARE(r.allActions(), before); // nothing changed
                // the honest file
                QVERIFY(playTexts(s, files.honest));
                fought = true;
            }
            QByteArray bytes;
            QString name;
            QVERIFY2(s.exportFile(&bytes, &name, false, &error), qPrintable(error));
            QVERIFY2(r.importFile(bytes, name, &error), qPrintable(error));
            QVERIFY(s.saveTo(dirs[sender], &error) && r.saveTo(dirs[1 - sender], &error));
            if (fought) {
                const QString attachment = battle::enteredAttachment(r.allActions());
                QVERIFY(!attachment.isEmpty());
                QVERIFY2(battle::matchesRecord(*rulesData(), r.state(), attachment, nullptr, &error),
                         qPrintable(error));
                verified = true;
            }
        }
        QVERIFY(verified);
    }

  private slots:
    void initTestCase() { QVERIFY(rulesData()); }

    // The option: battles=crt|tvbd|tercios|ask; the default (crt) is not listed, so every existing save and
    // PBEM start file reads and replays as before; a bad value is refused with its name.
    void option() {
        GameOptions o;
        QCOMPARE(o.battles, int8_t(kBattlesCrt));
        QVERIFY(optionList(o).isEmpty());
        QString error;
        for (const char* v : {"tvbd", "tercios", "ask", "crt"}) {
            QVERIFY(setOption(o, QStringLiteral("battles=%1").arg(QLatin1String(v)), &error));
            GameOptions back;
            for (const QString& kv : optionList(o))
                QVERIFY(setOption(back, kv, &error));
            QCOMPARE(back, o);
        }
        QVERIFY(optionList(o).isEmpty());
        QVERIFY(setOption(o, QStringLiteral("battles=tvbd"), &error));
        QCOMPARE(optionList(o), QStringList{QStringLiteral("battles=tvbd")});
        QVERIFY(setOption(o, QStringLiteral("all=on"), &error)); // every optional rule, not the battles
        QCOMPARE(o.battles, int8_t(kBattlesTvbd));
        QVERIFY(!setOption(o, QStringLiteral("battles=dice"), &error));
        QVERIFY(error.contains("battles") && error.contains("dice"));
    }

    // 12.26: with the default the CRT rolls at once, as before (two combat dice, then leader losses).
    void defaultRollsTheCrt() {
        Rules f;
        Battle b;
        QVERIFY(landshut(f, QStringLiteral("crt"), &b, {5, 5, 0, 0}));
        QVERIFY(f.logged("Loss Number"));
        QVERIFY(!f.logged("linked battle"));
        QVERIFY(f.s.forcedDice.size() <= 2); // both combat dice rolled
    }

    // 12.23 then the table: the engine stops in a decision of the attacker listing every result (winner x
    // attacker's Loss Number x defender's Loss Number, up to eliminating each force).
    void stopsAfterTheCombatCards() {
        Rules f;
        Battle b;
        QVERIFY(landshut(f, QStringLiteral("tvbd"), &b, {7, 7, 7}));
        QVERIFY(f.combat());
        QCOMPARE(f.e.actor(f.s), kCatholic);
        QVERIFY(f.e.prompt(f.s).contains("battle-result"));
        QVERIFY(f.e.prompt(f.s).contains("Tilly's Very Bad Day"));
        const int capA = lossCap(f, b.army), capD = lossCap(f, b.defenders);
        QVERIFY(capA > 0 && capD > 0);
        QCOMPARE(f.legalActions().size(), size_t(2 * (capA + 1) * (capD + 1)));
        QVERIFY(f.legal("battle-result attacker 0 0"));
        QVERIFY(f.legal(QStringLiteral("battle-result defender %1 %2").arg(capA).arg(capD)));
        QVERIFY(!f.legal(QStringLiteral("battle-result defender %1 0").arg(capA + 1)));
        QVERIFY(f.logged("linked battle: the battle at Landshut goes to the table"));
        QCOMPARE(f.s.forcedDice.size(), size_t(3)); // no CRT roll
    }

    // 12.31, 12.28, 12.5 after a table result: the Loss Numbers are allocated by the owners, the reported
    // winner holds the field and the loser retreats; no die is rolled for combat or leaders (12.41: the
    // table decided who fell).
    void resultGoesBackIntoTheCampaign() {
        Rules f;
        Battle b;
        QVERIFY(landshut(f, QStringLiteral("tvbd"), &b, {7, 7, 7}));
        const int la = stepLf(f, b.army), ld = 2 * stepLf(f, b.defenders);
        QVERIFY(f.act(QStringLiteral("battle-result attacker %1 %2").arg(la).arg(ld)));
        QCOMPARE(f.e.actor(f.s), kCatholic);
        QVERIFY(f.act("battle-leader done"));
        QCOMPARE(f.e.actor(f.s), kProtestant); // the defender confirms
        QVERIFY(f.e.prompt(f.s).contains("Catholic wins"));
        QVERIFY(f.act("battle confirm"));
        QVERIFY(f.logged(QStringLiteral("12.26 (linked battle) Protestant confirms: Loss Number %1 for the "
                                        "attacker, %2")
                             .arg(la)
                             .arg(ld)));
        QVERIFY(f.runUntil([&] { return !f.combat(); }));
        QVERIFY(f.logged(QStringLiteral("12.31 Catholic takes %1 of Loss Number %1").arg(la)));
        QVERIFY(f.logged(QStringLiteral("12.31 Protestant takes %1 of Loss Number %1").arg(ld)));
        int stepsLeft = 0;
        for (int16_t u : b.army)
            stepsLeft += f.s.units[u].steps;
        QCOMPARE(stepsLeft, 3); // one step of four lost
        QVERIFY(f.logged("12.28 Catholic wins the battle at Landshut"));
        QVERIFY(f.logged("12.5 Protestant forces retreat Landshut"));
        QCOMPARE(f.s.forcedDice.size(), size_t(3));
        QCOMPARE(f.s.leaders[f.leader("tilly")].status, LeaderStatus::InPlay);
        QCOMPARE(f.s.leaders[f.leader("mansfeld")].status, LeaderStatus::InPlay);
        QVERIFY(f.s.leaders[f.leader("mansfeld")].loc != f.city("landshut"));
    }

    // 12.28 on the table: the side that holds the field wins even with the higher Loss Number taken by
    // the other; 12.53: the beaten attacker goes back to where he came from.
    void tableWinnerOverridesTheLossNumbers() {
        Rules f;
        Battle b;
        QVERIFY(landshut(f, QStringLiteral("tvbd"), &b));
        QVERIFY(f.act("battle-result defender 1 3"));
        QVERIFY(f.act("battle-leader done"));
        QVERIFY(f.act("battle confirm"));
        QVERIFY(f.runUntil([&] { return !f.combat(); }));
        QVERIFY(f.logged("12.28 Protestant wins the battle at Landshut"));
        for (int16_t u : b.army)
            if (f.s.units[u].loc >= 0)
                QCOMPARE(f.s.units[u].loc, f.city("munich"));
        QCOMPARE(f.s.leaders[f.leader("tilly")].loc, f.city("munich"));
    }

    // 12.41-12.42 from the table: the leaders reported lost are eliminated (with their replacement if
    // they have one); the others stay without a roll. 12.43: a force eliminated by its Loss Number loses
    // its leaders as after the CRT.
    void leadersLostOnTheTable() {
        Rules f;
        Battle b;
        QVERIFY(landshut(f, QStringLiteral("tvbd"), &b, {7, 7, 7}));
        QVERIFY(f.act("battle-result attacker 0 1"));
        QVERIFY(!f.legal("battle-leader pappenheim")); // not in this battle
        QVERIFY(f.act("battle-leader mansfeld"));
        QVERIFY(!f.legal("battle-leader mansfeld")); // once
        QVERIFY(f.act("battle-leader done"));
        QVERIFY(f.e.prompt(f.s).contains("leaders lost: Mansfeld"));
        QVERIFY(f.act("battle confirm"));
        QVERIFY(f.runUntil([&] { return !f.combat(); }));
        QCOMPARE(f.s.leaders[f.leader("mansfeld")].status, LeaderStatus::Dead);
        QVERIFY(f.logged("12.41 (lost on the table)"));
        QCOMPARE(f.s.leaders[f.leader("tilly")].status, LeaderStatus::InPlay);
        QCOMPARE(f.s.forcedDice.size(), size_t(3));

        Rules g;
        QVERIFY(landshut(g, QStringLiteral("tvbd"), &b));
        QVERIFY(g.act(QStringLiteral("battle-result attacker 0 %1").arg(lossCap(g, b.defenders))));
        QVERIFY(g.act("battle-leader done"));
        QVERIFY(g.act("battle confirm"));
        QVERIFY(g.runUntil([&] { return !g.combat(); }));
        for (int16_t u : b.defenders)
            QCOMPARE(g.s.units[u].loc, kPool);
        QCOMPARE(g.s.leaders[g.leader("mansfeld")].status, LeaderStatus::Dead);
        QVERIFY(g.logged("12.43"));
    }

    // A disputed result goes back to the attacker, who enters it again (PBEM: the defender's next file).
    void disputedResult() {
        Rules f;
        Battle b;
        QVERIFY(landshut(f, QStringLiteral("tercios"), &b));
        QVERIFY(f.e.prompt(f.s).contains("Tercios"));
        QVERIFY(f.act("battle-result attacker 0 4"));
        QVERIFY(f.act("battle-leader mansfeld"));
        QVERIFY(f.act("battle-leader done"));
        QVERIFY(f.act("battle dispute"));
        QCOMPARE(f.e.actor(f.s), kCatholic);
        QVERIFY(f.logged("Protestant disputes the result"));
        QVERIFY(f.legal("battle-result defender 1 0"));
        QVERIFY(f.act("battle-result defender 1 0"));
        QVERIFY(f.act("battle-leader done"));
        QVERIFY(!f.e.prompt(f.s).contains("Mansfeld"));
        QVERIFY(f.act("battle confirm"));
        QVERIFY(f.runUntil([&] { return !f.combat(); }));
        QVERIFY(f.logged("12.28 Protestant wins the battle at Landshut"));
        QCOMPARE(f.s.leaders[f.leader("mansfeld")].status, LeaderStatus::InPlay);
    }

    // battles=ask: the attacker may ask for the table, the defender decides; otherwise the CRT (12.26).
    void askBattleByBattle() {
        {
            Rules f;
            Battle b;
            QVERIFY(landshut(f, QStringLiteral("ask"), &b, {5, 5, 0, 0}));
            QCOMPARE(f.e.actor(f.s), kCatholic);
            QCOMPARE(f.legalTexts(), (QStringList{"battle crt", "battle tvbd", "battle tercios"}));
            QVERIFY(f.act("battle crt"));
            QVERIFY(f.logged("Loss Number", f.last)); // rolled at once
        }
        {
            Rules f;
            Battle b;
            QVERIFY(landshut(f, QStringLiteral("ask"), &b, {5, 5, 0, 0}));
            QVERIFY(f.act("battle tvbd"));
            QCOMPARE(f.e.actor(f.s), kProtestant);
            QCOMPARE(f.legalTexts(), (QStringList{"battle accept", "battle decline"}));
            QVERIFY(f.act("battle decline"));
            QVERIFY(f.logged("Protestant declines", f.last));
            QVERIFY(f.logged("Loss Number", f.last));
        }
        {
            Rules f;
            Battle b;
            QVERIFY(landshut(f, QStringLiteral("ask"), &b, {5, 5, 0, 0}));
            QVERIFY(f.act("battle tercios"));
            QVERIFY(f.act("battle accept"));
            QCOMPARE(f.e.actor(f.s), kCatholic);
            QVERIFY(f.e.prompt(f.s).contains("Tercios"));
            QVERIFY(f.legal("battle-result attacker 2 2"));
            QCOMPARE(f.s.forcedDice.size(), size_t(4));
        }
    }

    // docs/actions.md: the notation of the linked-battle decisions reads back to the same action, and bad
    // forms are refused with a message.
    void notation() {
        Rules f;
        Battle b;
        QVERIFY(landshut(f, QStringLiteral("tvbd"), &b));
        for (const QString& t :
             {QStringLiteral("battle-result attacker 3 1"), QStringLiteral("battle-result defender 0 12")}) {
            QString error;
            const auto a = parseAction(f.d(), f.s, t, &error);
            QVERIFY2(a.has_value(), qPrintable(error));
            QCOMPARE(formatAction(f.d(), f.s, *a), t);
        }
        QVERIFY(f.act("battle-result attacker 1 1"));
        for (const QString& t :
             {QStringLiteral("battle-leader tilly"), QStringLiteral("battle-leader done")}) {
            const auto a = parseAction(f.d(), f.s, t, nullptr);
            QVERIFY(a.has_value());
            QCOMPARE(formatAction(f.d(), f.s, *a), t);
        }
        QString error;
        for (const char* bad :
             {"battle-result winner 1 1", "battle-result attacker 1", "battle-result attacker x 1",
              "battle-result attacker -1 0", "battle-leader nobody", "battle maybe", "battle"})
            QVERIFY2(!parseAction(f.d(), f.s, QLatin1String(bad), &error), bad);
    }

    // The fuzzer (random games, invariants after every action, every legal action's notation parsed back,
    // each game replayed from its notation) with every battle on the table, and battle by battle.
    void fuzzWithLinkedBattles() {
        for (const char* v : {"tvbd", "ask"}) {
            QProcess p;
            p.start(QStringLiteral(WESTPHALIA_CLI),
                    {"fuzz", "--games", "6", "--seed", "12", "--policy", "aggressive", "--scenario",
                     "campaign", "--option", QStringLiteral("battles=%1").arg(QLatin1String(v)),
                     "--max-actions", "1500"});
            QVERIFY(p.waitForFinished(120000));
            const QString outText = QString::fromUtf8(p.readAllStandardOutput());
            QVERIFY2(p.exitCode() == 0, qPrintable(outText + p.readAllStandardError()));
            QVERIFY(outText.contains("failed: 0"));
        }
    }

    // Saves (docs/saves.md): the option is written as battles=tvbd and a game with linked battles replays
    // from the file to the same state.
    void saveRoundTrip() {
        Game g(rulesData());
        QString error;
        QVERIFY(g.start(QStringLiteral("campaign"), battlesOption(QStringLiteral("tvbd")), 5, &error));
        Rng pick(5);
        int table = 0;
        QStringList autoEntered; // the first table battle's result: auto-resolved (the others: at random)
        // until two table battles are confirmed and the second is over (its 12.28 line may follow the
        // confirmation: the stack still holds the battle's frame)
        const auto battleOpen = [&g] {
            return std::any_of(g.state().frames.begin(), g.state().frames.end(),
                               [](const auto& f) { return std::holds_alternative<CombatFrame>(f); });
        };
        for (int i = 0; i < 3000 && !g.state().gameOver && (table < 2 || battleOpen()); ++i) {
            if (table == 0 && autoEntered.isEmpty() && g.prompt().contains("battle-result")) {
                battle::LinkedResult res;
                QVERIFY2(battle::autoResolveTop(g.data(), g.state(), &res, &error), qPrintable(error));
                autoEntered = res.actions(g.data());
                for (const QString& a : autoEntered)
                    QVERIFY2(g.play(a).ok, qPrintable(a));
                QVERIFY(g.play(QStringLiteral("battle confirm")).ok); // the defender confirms this one
                ++table;
                continue;
            }
            const auto legal = g.legalActions();
            QVERIFY(!legal.empty());
            const size_t k = chooseRandomAction(g.data(), g.state(), legal, RandomPolicy::Aggressive, pick);
            if (formatAction(g.data(), g.state(), legal[k]) == QLatin1String("battle confirm"))
                ++table;
            QVERIFY(g.play(legal[k]).ok);
        }
        QVERIFY(table > 0);
        const save::SaveGame sg = save::fromGame(g);
        QVERIFY(sg.options.contains(QStringLiteral("battles=tvbd")));
        QVERIFY(!sg.actions.filter(QStringLiteral("battle-result")).isEmpty());
        const auto back = save::parse(save::serialize(sg), QStringLiteral("linked.tyw"), &error);
        QVERIFY2(back.has_value(), qPrintable(error));
        Game r(rulesData());
        QVERIFY2(save::replay(*back, QStringLiteral("linked.tyw"), r, &error), qPrintable(error));
        QCOMPARE(r.options().battles, int8_t(kBattlesTvbd));
        QVERIFY(r.state() == g.state());

        // History: the game report lists the battles, the table ones with their entered result.
        GameState start;
        QVERIFY(r.engine().newGame(start, QStringLiteral("campaign"), battlesOption(QStringLiteral("tvbd")),
                                   5, &error));
        QList<battle::BattleRecord> battles;
        QVERIFY2(battle::battleReport(r.engine(), start, g.actions(), &battles, &error), qPrintable(error));
        int onTable = 0;
        for (const battle::BattleRecord& b : battles) {
            QVERIFY(b.action >= 0 && !b.city.isEmpty());
            QCOMPARE(b.resolution,
                     QStringLiteral("table: Tilly's Very Bad Day")); // every battle, battles=tvbd
            if (!b.tableResult.isEmpty()) {
                ++onTable;
                // its links: numbered, the ruleset, the seed, whether it was the auto-resolved battle
                QCOMPARE(b.tableBattle, onTable);
                QCOMPARE(b.rules, QStringLiteral("tvbd"));
                QVERIFY(b.battleSeed != 0);
                if (onTable == 1) {
                    QCOMPARE(b.tableResult, autoEntered.join(QStringLiteral("; ")));
                    QCOMPARE(b.autoResolved, 1);
                } else {
                    QVERIFY(b.autoResolved == 0 || b.autoResolved == 1);
                }
                QVERIFY(b.tableResult.startsWith("battle-result"));
                QVERIFY(!b.winner.isEmpty());
                QVERIFY(b.lossNumber[0] >= 0 && b.lossNumber[1] >= 0);
                QVERIFY(g.actions()[b.action].startsWith("attack")); // the battle starts with the attack
            }
        }
        QCOMPARE(onTable, table);
        QTemporaryDir tmp;
        const QString path = tmp.filePath("linked.tyw");
        QVERIFY(save::writeFile(path, sg, &error));
        QProcess p;
        p.start(QStringLiteral(WESTPHALIA_CLI), {"battle-link", "report", "--save", path});
        QVERIFY(p.waitForFinished(60000));
        const QString text = QString::fromUtf8(p.readAllStandardOutput());
        QCOMPARE(p.exitCode(), 0);
        QVERIFY2(text.contains(QStringLiteral("battles: %1").arg(battles.size())), qPrintable(text));
        QVERIFY(text.contains("table: Tilly's Very Bad Day") && text.contains("entered: battle-result"));
        quint64 firstSeed = 0;
        for (const battle::BattleRecord& b : battles)
            if (b.tableBattle == 1)
                firstSeed = b.battleSeed;
        QVERIFY2(text.contains(
                     QStringLiteral("table battle 1 (tvbd, battle seed %1; no record; the auto-resolved "
                                    "battle); scenario, record and log: westphalia-cli battle-link replay "
                                    "--save %2 --battle 1")
                         .arg(firstSeed)
                         .arg(path)),
                 qPrintable(text));
        // ... and `battle report` is the same command.
        QProcess same;
        same.start(QStringLiteral(WESTPHALIA_CLI), {"battle", "report", "--save", path});
        QVERIFY(same.waitForFinished(60000));
        QCOMPARE(QString::fromUtf8(same.readAllStandardOutput()), text);
        // The link followed: the first table battle regenerated from the save, its scenario written and
        // its log printed; the same battle, so the same result as entered.
        const QString scenario = tmp.filePath("battle-1.json");
        QProcess link;
        link.start(QStringLiteral(WESTPHALIA_CLI),
                   {"battle-link", "auto", "--save", path, "--battle", "1", "--out", scenario, "--log"});
        QVERIFY(link.waitForFinished(60000));
        const QString linked = QString::fromUtf8(link.readAllStandardOutput());
        QVERIFY2(link.exitCode() == 0, qPrintable(QString::fromUtf8(link.readAllStandardError())));
        QVERIFY(QFile::exists(scenario));
        QVERIFY(linked.contains("  | ")); // the tactical log
        for (const QString& a : autoEntered)
            QVERIFY2(linked.contains(a + QLatin1Char('\n')), qPrintable(a));
        QFile js(scenario);
        QVERIFY(js.open(QIODevice::ReadOnly));
        tactical::BattleState loaded;
        QVERIFY2(tactical::scenarioFromJson(QJsonDocument::fromJson(js.readAll()).object(), scenario,
                                            *tactical::defaultTvbdRules(&error), &loaded, &error),
                 qPrintable(error));
        QProcess none;
        none.start(QStringLiteral(WESTPHALIA_CLI), {"battle-link", "auto", "--save", path, "--battle", "99"});
        QVERIFY(none.waitForFinished(60000));
        QCOMPARE(none.exitCode(), 1);
        QVERIFY(QString::fromUtf8(none.readAllStandardError()).contains("not battle 99"));
    }

    // PBEM (docs/pbem.md): the option is agreed in the start exchange (the guest's game has it), and a
    // battle fought on the table travels in the turn files: the attacker's result, then the defender's
    // confirmation in his own file, each verified by the receiver's replay.
    void pbemLinkedBattle() {
        QTemporaryDir tmp;
        const QString dirs[2] = {tmp.filePath("catholic"), tmp.filePath("protestant")};
        QString error;
        const save::TestSecretsScope secrets(4101);
        startPbem(dirs, QStringLiteral("battles=tvbd"));
        if (QTest::currentTestFailed())
            return;
        Rng pick(17);
        bool confirmedRemotely = false;
        for (int file = 0; file < 400 && !confirmedRemotely; ++file) {
            save::PbemSession a(rulesData()), b(rulesData());
            QVERIFY(a.loadFrom(dirs[0], &error) && b.loadFrom(dirs[1], &error));
            const int sender = a.myBall() ? 0 : 1;
            save::PbemSession& s = sender == 0 ? a : b;
            save::PbemSession& r = sender == 0 ? b : a;
            if (s.state().gameOver)
                break;
            while (s.canPlay()) {
                const auto legal = s.legalActions();
                QVERIFY(s.play(legal[chooseRandomAction(*rulesData(), s.state(), legal,
                                                        RandomPolicy::Aggressive, pick)])
                            .ok);
            }
            QByteArray bytes;
            QString name;
            QVERIFY2(s.exportFile(&bytes, &name, false, &error), qPrintable(error));
            QVERIFY2(r.importFile(bytes, name, &error), qPrintable(error));
            QVERIFY(r.started());
            QCOMPARE(r.state().options.battles, int8_t(kBattlesTvbd)); // agreed in the start exchange
            QCOMPARE(s.state().options.battles, int8_t(kBattlesTvbd));
            QVERIFY(s.saveTo(dirs[sender], &error) && r.saveTo(dirs[1 - sender], &error));
            // the receiver has replayed a confirmation made in the sender's file
            const QStringList all = r.allActions();
            const qsizetype confirm = all.lastIndexOf(QStringLiteral("battle confirm"));
            confirmedRemotely = confirm > 0 && !all.filter(QStringLiteral("battle-result")).isEmpty();
        }
        QVERIFY(confirmedRemotely);
    }

    // The attachment (docs/actions.md "Attachments"): only "battle-result" takes one, of base64url
    // characters; the engine drops it (the Action is the same), Game keeps it in the recorded text, and the
    // record round-trips through it. A malformed record is refused by the decoder with its reason.
    void attachmentNotation() {
        Rules f;
        Battle b;
        QVERIFY(landshut(f, QStringLiteral("tvbd"), &b));
        QString error, attachment;
        const auto plain = parseAction(f.d(), f.s, QStringLiteral("battle-result attacker 1 2"), &error);
        const auto attached =
            parseAction(f.d(), f.s, QStringLiteral("battle-result attacker 1 2 @AbC-_9"), &error);
        QVERIFY(plain && attached);
        QVERIFY(*plain == *attached);
        QCOMPARE(splitAttachment(QStringLiteral("battle-result attacker 1 2 @AbC-_9"), &attachment),
                 QStringLiteral("battle-result attacker 1 2"));
        QCOMPARE(attachment, QStringLiteral("AbC-_9"));
        QCOMPARE(splitAttachment(QStringLiteral("battle confirm"), &attachment),
                 QStringLiteral("battle confirm"));
        QVERIFY(attachment.isEmpty());
        QVERIFY(!parseAction(f.d(), f.s, QStringLiteral("battle confirm @AbC"), &error));
        QVERIFY(error.contains("only 'battle-result'"));
        QVERIFY(!parseAction(f.d(), f.s, QStringLiteral("battle-result attacker 1 2 @a+b/"), &error));
        QVERIFY(error.contains("base64url"));

        battle::TableRecord r;
        r.by = QStringLiteral("screen");
        r.rules = QStringLiteral("tercios");
        r.seed = 18446744073709551615ULL;
        r.scenario = QStringLiteral("0123456789abcdef");
        r.computer[1] = true;
        r.moves = {{QStringLiteral("order A1 ready"), {}, {}},
                   {QStringLiteral("fire A1 B2"), {3, 6}, {}},
                   {QStringLiteral("done B2"), {}, QStringLiteral("simple")}};
        const QString enc = battle::encodeRecord(r);
        QString why;
        QVERIFY(attachmentAllowed(*plain, enc, &why));
        battle::TableRecord back;
        QVERIFY2(battle::decodeRecord(enc, &back, &error), qPrintable(error));
        QCOMPARE(back.seed, r.seed);
        QCOMPARE(back.moves.size(), 3);
        QCOMPARE(back.moves[1].dice, (QList<int>{3, 6}));
        QVERIFY(back.moves[2].byPolicy() && back.computer[1] && !back.computer[0]);
        QCOMPARE(back.handDice(), 2);
        QCOMPARE(battle::encodeRecord(back), enc);
        QVERIFY(!battle::decodeRecord(QStringLiteral("AAAA"), &back, &error));
        QVERIFY(!battle::decodeRecord(enc.left(enc.size() / 2), &back, &error));
        QJsonObject o = battle::recordToJson(r);
        o.insert(QStringLiteral("by"), QStringLiteral("dream"));
        QVERIFY(!battle::recordFromJson(o, &back, &error));
        QVERIFY(error.contains("$.by"));
        // Game records it in the text; an attachment on another action is refused there too
        Game g(rulesData());
        QVERIFY(g.start(QStringLiteral("campaign"), battlesOption(QStringLiteral("tvbd")), 1, &error));
        const auto legal = g.legalActions();
        QVERIFY(!g.play(legal.front(), QStringLiteral("AbC")).ok);
        QVERIFY(g.actions().isEmpty());
    }

    // A battle fought on screen (docs/linked-battles.md "The battle's record"): its record — the seed, the
    // exported scenario's hash, every tactical action with the computer seat's marked — replays to the result
    // entered, in both rulesets; each kind of tampering is refused with what is wrong: another result, a
    // computer's move that is not the policy's, an illegal or missing move, another battle's seed, another
    // scenario; by e-mail the receiver's side must be the computer's and no die rolled by hand.
    void screenRecord_data() { rulesetRows(); }
    void screenRecord() {
        QFETCH(QString, rules);
        Rules f;
        Battle b;
        QVERIFY(landshut(f, rules, &b));
        QString error;
        // the defender (the Protestant, tactical side 1) is the computer seat: an e-mail game's receiver
        const battle::TableRecord record = fightOnScreen(f.d(), f.s, 1);
        QVERIFY(record.moves.size() > 10);
        QVERIFY(std::any_of(record.moves.begin(), record.moves.end(),
                            [](const auto& m) { return m.byPolicy(); }));
        QVERIFY(std::any_of(record.moves.begin(), record.moves.end(),
                            [](const auto& m) { return !m.byPolicy(); }));
        battle::RecordCheck check;
        QVERIFY2(battle::replayRecord(f.d(), f.s, record, &check, &error), qPrintable(error));
        QVERIFY(check.table.winner >= 0);
        QVERIFY(!check.log.isEmpty());
        QCOMPARE(check.played.size(), record.moves.size());
        const battle::LinkedResult expected = check.expected;
        const QStringList texts = withRecord(f.d(), expected, record);
        QVERIFY2(battle::checkAttachedResult(f.d(), f.s, texts, kProtestant, nullptr, &error),
                 qPrintable(error));
        QVERIFY2(battle::checkAttachedResult(f.d(), f.s, texts, kNone, nullptr, &error), qPrintable(error));

        // another result than the record's
        QStringList other = texts;
        other.front() = QStringLiteral("battle-result %1 %2 %3 @%4")
                            .arg(expected.attackerWins ? "defender" : "attacker")
                            .arg(expected.lossNumber[0])
                            .arg(expected.lossNumber[1])
                            .arg(battle::encodeRecord(record));
        QVERIFY(!battle::checkAttachedResult(f.d(), f.s, other, kProtestant, nullptr, &error));
        QVERIFY2(error.contains("is not the result of the battle's record"), qPrintable(error));
        QVERIFY(!battle::checkAttachedResult(f.d(), f.s, texts.mid(0, texts.size() - 1), kNone, nullptr,
                                             &error) ||
                texts.size() == 1);
        // the computer seat's move replaced by another legal one
        battle::TableRecord forged = record;
        const qsizetype k = std::find_if(forged.moves.begin(), forged.moves.end(),
                                         [](const auto& m) { return m.byPolicy(); }) -
                            forged.moves.begin();
        forged.moves[k].policy.clear();
        QVERIFY(!battle::replayRecord(f.d(), f.s, forged, nullptr, &error));
        QVERIFY2(error.contains("computer seat's"), qPrintable(error));
        forged.moves[k].policy = QStringLiteral("simple");
        forged.moves[k].text = QStringLiteral("something else");
        QVERIFY(!battle::replayRecord(f.d(), f.s, forged, nullptr, &error));
        QVERIFY2(error.contains("its choice here is"), qPrintable(error));
        // an illegal move, a battle cut short
        forged = record;
        const qsizetype human = std::find_if(forged.moves.begin(), forged.moves.end(),
                                             [](const auto& m) { return !m.byPolicy(); }) -
                                forged.moves.begin();
        forged.moves[human].text = QStringLiteral("charge NOBODY NOONE");
        QVERIFY(!battle::replayRecord(f.d(), f.s, forged, nullptr, &error));
        QVERIFY2(error.contains(QStringLiteral("tactical action %1 ").arg(human + 1)), qPrintable(error));
        forged = record;
        forged.moves.removeLast();
        QVERIFY(!battle::replayRecord(f.d(), f.s, forged, nullptr, &error));
        QVERIFY2(error.contains("not over"), qPrintable(error));
        // another battle's seed, another scenario (other tactical data files)
        forged = record;
        forged.seed ^= 1;
        QVERIFY(!battle::replayRecord(f.d(), f.s, forged, nullptr, &error));
        QVERIFY2(error.contains("another battle"), qPrintable(error));
        forged = record;
        forged.scenario = QStringLiteral("ffffffffffffffff");
        QVERIFY(!battle::replayRecord(f.d(), f.s, forged, nullptr, &error));
        QVERIFY2(error.contains("tactical data"), qPrintable(error));
        // by e-mail: both sides played by the sender, or dice rolled by hand
        const battle::TableRecord hotseat = fightOnScreen(f.d(), f.s, -1);
        QVERIFY2(battle::replayRecord(f.d(), f.s, hotseat, &check, &error), qPrintable(error));
        const QStringList hotseatTexts = withRecord(f.d(), check.expected, hotseat);
        QVERIFY2(battle::checkAttachedResult(f.d(), f.s, hotseatTexts, kNone, nullptr, &error),
                 qPrintable(error));
        QVERIFY(!battle::checkAttachedResult(f.d(), f.s, hotseatTexts, kProtestant, nullptr, &error));
        QVERIFY2(error.contains("not played by the computer seat"), qPrintable(error));
        const battle::TableRecord byHand = fightOnScreen(f.d(), f.s, 1, true);
        QVERIFY(byHand.handDice() > 0);
        QVERIFY2(battle::replayRecord(f.d(), f.s, byHand, &check, &error), qPrintable(error));
        const QStringList byHandTexts = withRecord(f.d(), check.expected, byHand);
        QVERIFY2(battle::checkAttachedResult(f.d(), f.s, byHandTexts, kNone, nullptr, &error),
                 qPrintable(error));
        QVERIFY(!battle::checkAttachedResult(f.d(), f.s, byHandTexts, kProtestant, nullptr, &error));
        QVERIFY2(error.contains("rolled by hand"), qPrintable(error));

        // entered in the campaign: the confirmation's check replays it (and refuses another result)
        Rules wrong = f;
        for (const QString& a : texts)
            QVERIFY2(f.act(a), qPrintable(a));
        const QString attachment = battle::enteredAttachment(texts);
        QVERIFY(!attachment.isEmpty());
        QVERIFY2(battle::matchesRecord(f.d(), f.s, attachment, nullptr, &error), qPrintable(error));
        QVERIFY(wrong.act(other.front()));
        for (qsizetype i = 1; i < texts.size(); ++i)
            QVERIFY(wrong.act(texts[i]));
        QVERIFY(!battle::matchesRecord(wrong.d(), wrong.s, attachment, nullptr, &error));
        QVERIFY2(error.contains("the battle fought on screen gives"), qPrintable(error));
        QVERIFY(f.act("battle confirm"));
        QVERIFY(f.runUntil([&] { return !f.combat(); }));
        QVERIFY(f.logged(QStringLiteral("of Loss Number %1").arg(expected.lossNumber[0])) ||
                expected.lossNumber[0] == 0);
    }

    // docs/linked-battles.md "The battle's record": a record names the policy that chose its computer moves
    // (per move: "policy": "tactical" for TVBD's tactical AI, true for the simple policy as before) and an
    // auto-resolved battle's record the policy that played it (its "policy"; none: the simple policy). A
    // battle against the tactical AI verifies; a tactical move passed off as the simple policy's, or
    // replaced, is caught; a record without the names (written before them) is the simple policy's and
    // still verifies; Tercios, which has no tactical AI, refuses the name.
    void policyNamedInTheRecord() {
        Rules f;
        Battle b;
        QVERIFY(landshut(f, QStringLiteral("tvbd"), &b));
        QString error;
        const battle::TableRecord record = fightOnScreen(f.d(), f.s, 1, false, QStringLiteral("tactical"));
        QVERIFY(record.moves.size() > 10);
        int tacticalMoves = 0;
        for (const battle::TableMove& m : record.moves)
            tacticalMoves += m.policy == QLatin1String("tactical") ? 1 : 0;
        QVERIFY(tacticalMoves > 0);
        // the name in the JSON, and back through the attachment
        const QJsonArray moves = battle::recordToJson(record).value(QStringLiteral("moves")).toArray();
        QVERIFY(std::any_of(moves.begin(), moves.end(), [](const QJsonValue& v) {
            return v.toObject().value(QStringLiteral("policy")) == QJsonValue(QStringLiteral("tactical"));
        }));
        battle::TableRecord back;
        QVERIFY2(battle::decodeRecord(battle::encodeRecord(record), &back, &error), qPrintable(error));
        QCOMPARE(back.moves.size(), record.moves.size());
        for (qsizetype i = 0; i < back.moves.size(); ++i)
            QCOMPARE(back.moves[i].policy, record.moves[i].policy);
        battle::RecordCheck check;
        QVERIFY2(battle::replayRecord(f.d(), f.s, back, &check, &error), qPrintable(error));
        QVERIFY(check.table.winner >= 0);
        const QStringList texts = withRecord(f.d(), check.expected, record);
        QVERIFY2(battle::checkAttachedResult(f.d(), f.s, texts, kProtestant, nullptr, &error),
                 qPrintable(error));

        // the same battle against the simple policy is another battle: the name matters
        const battle::TableRecord simple = fightOnScreen(f.d(), f.s, 1, false);
        QStringList tacticalTexts, simpleTexts;
        for (const battle::TableMove& m : record.moves)
            tacticalTexts << m.text;
        for (const battle::TableMove& m : simple.moves)
            simpleTexts << m.text;
        QVERIFY(tacticalTexts != simpleTexts);
        // tampering: the tactical moves said to be the simple policy's; one tactical move replaced
        battle::TableRecord forged = record;
        for (battle::TableMove& m : forged.moves)
            if (m.byPolicy())
                m.policy = QStringLiteral("simple");
        QVERIFY(!battle::replayRecord(f.d(), f.s, forged, nullptr, &error));
        QVERIFY2(error.contains("the simple policy") && error.contains("its choice here is"),
                 qPrintable(error));
        forged = record;
        const qsizetype k = std::find_if(forged.moves.begin(), forged.moves.end(),
                                         [](const auto& m) { return m.byPolicy(); }) -
                            forged.moves.begin();
        forged.moves[k].text = QStringLiteral("end-phase");
        QVERIFY(!battle::replayRecord(f.d(), f.s, forged, nullptr, &error));
        QVERIFY2(error.contains("the tactical policy") &&
                     error.contains(QStringLiteral("action %1 ").arg(k + 1)),
                 qPrintable(error));
        forged = record;
        QJsonObject o = battle::recordToJson(forged);
        QJsonArray ms = o.value(QStringLiteral("moves")).toArray();
        QJsonObject m0 = ms[k].toObject();
        m0.insert(QStringLiteral("policy"), QStringLiteral("clever"));
        ms[k] = m0;
        o.insert(QStringLiteral("moves"), ms);
        QVERIFY(!battle::recordFromJson(o, &back, &error));
        QVERIFY2(error.contains(QStringLiteral("moves[%1].policy").arg(k)), qPrintable(error));

        // a record written before the names: "policy": true, the simple policy's moves — still verifies
        QJsonObject old = battle::recordToJson(simple);
        QVERIFY(!old.contains(QStringLiteral("policy")));
        int oldMarks = 0;
        for (const QJsonValue& v : old.value(QStringLiteral("moves")).toArray())
            oldMarks += v.toObject().value(QStringLiteral("policy")) == QJsonValue(true) ? 1 : 0;
        QVERIFY(oldMarks > 0);
        QVERIFY2(battle::recordFromJson(old, &back, &error), qPrintable(error));
        QVERIFY2(battle::replayRecord(f.d(), f.s, back, &check, &error), qPrintable(error));
        // a "screen" record names its policies per move only
        old.insert(QStringLiteral("policy"), QStringLiteral("tactical"));
        QVERIFY(!battle::recordFromJson(old, &back, &error));
        QVERIFY2(error.contains("$.policy"), qPrintable(error));

        // auto-resolved: the record names TVBD's tactical AI, which autoResolveTop plays; an older record
        // without the name replays the simple policy's battle
        QString attachment;
        QVERIFY2(battle::autoRecord(f.d(), f.s, &attachment, &error), qPrintable(error));
        battle::TableRecord autoRec;
        QVERIFY2(battle::decodeRecord(attachment, &autoRec, &error), qPrintable(error));
        QCOMPARE(autoRec.policy, QStringLiteral("tactical"));
        QCOMPARE(battle::recordToJson(autoRec).value(QStringLiteral("policy")).toString(),
                 QStringLiteral("tactical"));
        battle::LinkedResult top, bySimple;
        QVERIFY2(battle::autoResolveTop(f.d(), f.s, &top, &error), qPrintable(error));
        QVERIFY2(battle::replayRecord(f.d(), f.s, autoRec, &check, &error), qPrintable(error));
        QCOMPARE(check.expected.actions(f.d()), top.actions(f.d()));
        QVERIFY(!check.played.isEmpty());
        QVERIFY(std::all_of(check.played.begin(), check.played.end(),
                            [](const auto& m) { return m.policy == QLatin1String("tactical"); }));
        QVERIFY2(
            battle::checkAttachedResult(f.d(), f.s, withRecord(f.d(), top, autoRec), kNone, nullptr, &error),
            qPrintable(error));
        // the tactical AI's revision (kTacticalAiRevision): written, read back; a record of another
        // revision (older ones carry none: revision 1) is refused with the reason, not as a forgery
        QCOMPARE(battle::recordToJson(autoRec).value(QStringLiteral("tacticalAi")).toInt(),
                 wp::tactical::kTacticalAiRevision);
        QCOMPARE(autoRec.tacticalAi, wp::tactical::kTacticalAiRevision);
        {
            QJsonObject rj = battle::recordToJson(autoRec);
            rj.remove(QStringLiteral("tacticalAi"));
            battle::TableRecord older;
            QVERIFY2(battle::recordFromJson(rj, &older, &error), qPrintable(error));
            QCOMPARE(older.tacticalAi, 1);
            QVERIFY(!battle::replayRecord(f.d(), f.s, older, nullptr, &error));
            QVERIFY2(error.contains(QStringLiteral("revision 1 of the tactical AI")) &&
                         error.contains(QStringLiteral("same version")),
                     qPrintable(error));
            rj.insert(QStringLiteral("tacticalAi"), QStringLiteral("two"));
            QVERIFY(!battle::recordFromJson(rj, &older, &error));
            QVERIFY2(error.contains(QStringLiteral("$.tacticalAi")), qPrintable(error));
            QJsonObject plain = battle::recordToJson(simple); // the simple policy's moves only
            QVERIFY(!plain.contains(QStringLiteral("tacticalAi")));
            plain.insert(QStringLiteral("tacticalAi"), 2);
            QVERIFY(!battle::recordFromJson(plain, &older, &error));
            QVERIFY2(error.contains(QStringLiteral("only a record with moves of the tactical AI")),
                     qPrintable(error));
        }
        const QStringList autoTactical = [&] {
            QStringList t;
            for (const battle::TableMove& m : check.played)
                t << m.text;
            return t;
        }();
        battle::TableRecord oldAuto = autoRec;
        oldAuto.policy.clear();
        QVERIFY(!battle::recordToJson(oldAuto).contains(QStringLiteral("policy")));
        QVERIFY2(battle::replayRecord(f.d(), f.s, oldAuto, &check, &error), qPrintable(error));
        QVERIFY(std::all_of(check.played.begin(), check.played.end(),
                            [](const auto& m) { return m.policy == QLatin1String("simple"); }));
        QStringList autoSimple;
        for (const battle::TableMove& m : check.played)
            autoSimple << m.text;
        QVERIFY(autoSimple != autoTactical);
        QVERIFY2(battle::autoResolveLinked(f.d(), f.s, QStringLiteral("tvbd"), autoRec.seed,
                                           battle::defaultMapping(QStringLiteral("tvbd")), &bySimple, nullptr,
                                           &error, nullptr, QStringLiteral("simple")),
                 qPrintable(error));
        QCOMPARE(check.expected.actions(f.d()), bySimple.actions(f.d()));

        // Tercios: the simple policy only
        Rules t;
        QVERIFY(landshut(t, QStringLiteral("tercios"), &b));
        QVERIFY2(battle::autoRecord(t.d(), t.s, &attachment, &error), qPrintable(error));
        QVERIFY2(battle::decodeRecord(attachment, &autoRec, &error), qPrintable(error));
        QVERIFY(autoRec.policy.isEmpty()); // written as before: no name
        autoRec.policy = QStringLiteral("tactical");
        QVERIFY(!battle::replayRecord(t.d(), t.s, autoRec, nullptr, &error));
        QVERIFY2(error.contains("tactical AI plays TVBD only"), qPrintable(error));
        battle::TableRecord tc = fightOnScreen(t.d(), t.s, 1);
        for (battle::TableMove& m : tc.moves)
            if (m.byPolicy())
                m.policy = QStringLiteral("tactical");
        QVERIFY(!battle::replayRecord(t.d(), t.s, tc, nullptr, &error));
        QVERIFY2(error.contains("tactical AI plays TVBD only"), qPrintable(error));
    }

    // A battle fought on screen in a saved game: its record travels in the save (the attachment of the
    // "battle-result" action, under the hash chain), a reloaded game has it, the battle report replays it
    // and says so, `save verify` replays it, `battle-link replay` opens it again (its scenario and tactical
    // battle record, its log). A save whose record was replaced (its chain rewritten) still loads — the
    // campaign does not depend on it — but the report and `save verify` reject the record.
    void screenRecordSaveRoundTrip() {
        Game g(rulesData());
        QString error;
        QVERIFY2(playToTheTable(g, QStringLiteral("tercios"), 3), qPrintable(g.prompt()));
        const battle::TableRecord record =
            fightOnScreen(g.data(), g.state(), -1); // hotseat: both at the screen
        battle::RecordCheck check;
        QVERIFY2(battle::replayRecord(g.data(), g.state(), record, &check, &error), qPrintable(error));
        const qsizetype at = g.actions().size();
        enterAndConfirm(g, check, record);
        QVERIFY(g.actions()[at].startsWith(check.expected.actions(g.data()).front() + QStringLiteral(" @")));

        save::SaveGame sg = save::fromGame(g);
        Game r(rulesData());
        reloaded(g, QStringLiteral("screen.tyw"), &r);
        if (QTest::currentTestFailed())
            return;
        auto report = [&](const Game& game, QList<battle::BattleRecord>* out) {
            return campaignReport(game, QStringLiteral("tercios"), 3, out, &error);
        };
        QList<battle::BattleRecord> battles;
        QVERIFY2(report(r, &battles), qPrintable(error));
        QVERIFY(!battles.isEmpty());
        const battle::BattleRecord& b = battles.back();
        QCOMPARE(b.tableBattle, 1);
        QCOMPARE(b.evidence, QStringLiteral("screen"));
        QCOMPARE(b.recordOk, 1);
        QCOMPARE(b.resultAction, int(at));
        QVERIFY(b.tableState);
        QVERIFY(!b.attachment.isEmpty());

        QTemporaryDir tmp;
        const QString path = tmp.filePath("screen.tyw");
        QVERIFY(save::writeFile(path, sg, &error));
        int code = -1;
        QString text = runCli({"save", "verify", path}, &code);
        QVERIFY2(code == 0 && text.contains("1 table battle records replayed"), qPrintable(text));
        text = runCli({"battle-link", "report", "--save", path}, &code);
        QVERIFY2(code == 0 && text.contains("fought on screen: its record replays to the result"),
                 qPrintable(text));
        QVERIFY(text.contains("westphalia-cli battle-link replay --save " + path + " --battle 1"));
        const QString out = tmp.filePath("battle-1.json");
        text =
            runCli({"battle-link", "replay", "--save", path, "--battle", "1", "--out", out, "--log"}, &code);
        QVERIFY2(code == 0 && text.contains("fought on screen") && text.contains("  | "), qPrintable(text));
        QFile rec(out);
        QVERIFY(rec.open(QIODevice::ReadOnly));
        const QJsonObject recJson = QJsonDocument::fromJson(rec.readAll()).object();
        QCOMPARE(recJson.value("format").toString(), QStringLiteral("westphalia-tactical-battle"));
        QCOMPARE(recJson.value("actions").toArray().size(), record.moves.size());
        QVERIFY(QFile::exists(tmp.filePath("battle-1-scenario.json")));

        // Another record attached to the same result (the chain rewritten, as an editor with this program
        // would): the campaign still replays, the record is rejected.
        battle::TableRecord forged = record;
        forged.moves.removeLast();
        QString attachment;
        const QString notation = splitAttachment(sg.actions[at], &attachment);
        sg.actions[at] = notation + QStringLiteral(" @") + battle::encodeRecord(forged);
        const auto edited = save::parse(save::serialize(sg), QStringLiteral("forged.tyw"), &error);
        QVERIFY2(edited.has_value(), qPrintable(error));
        Game f(rulesData());
        QVERIFY2(save::replay(*edited, QStringLiteral("forged.tyw"), f, &error), qPrintable(error));
        QVERIFY2(report(f, &battles), qPrintable(error));
        QCOMPARE(battles.back().recordOk, 0);
        QVERIFY2(battles.back().recordError.contains("not over"), qPrintable(battles.back().recordError));
        QVERIFY(save::writeFile(path, sg, &error));
        text = runCli({"save", "verify", path}, &code);
        QVERIFY2(code == 1 && text.contains("the battle's record does not give the result confirmed"),
                 qPrintable(text));
        text = runCli({"battle-link", "report", "--save", path}, &code);
        QVERIFY2(code == 1 && text.contains("does NOT give the result"), qPrintable(text));
    }

    // By e-mail (docs/pbem.md, docs/linked-battles.md): the attacker fights the battle on screen with the
    // computer seat for the absent defender; the record travels in his turn file with the result; the
    // defender's copy replays it on import and accepts the file, and its check at the confirmation agrees.
    // A file whose record does not hold is refused with the reason and nothing changes: here the sender
    // played the receiver's side himself.
    void pbemScreenBattle() {
        pbemTableBattle(QStringLiteral("battles=tercios"), 4102, 23, [](const GameState& at, Files* files) {
            // The receiver is the defender: tactical side 1, the computer seat's on the sender's screen.
            QString error;
            const battle::TableRecord record = fightOnScreen(*rulesData(), at, 1);
            battle::RecordCheck check;
            QVERIFY2(battle::replayRecord(*rulesData(), at, record, &check, &error), qPrintable(error));
            files->honest = withRecord(*rulesData(), check.expected, record);
            // a cheating copy of the sender: both sides of the battle played by himself
            const battle::TableRecord both = fightOnScreen(*rulesData(), at, -1);
            battle::RecordCheck bothCheck;
            QVERIFY2(battle::replayRecord(*rulesData(), at, both, &bothCheck, &error), qPrintable(error));
            files->cheat = withRecord(*rulesData(), bothCheck.expected, both);
            files->refusal = QStringLiteral("not played by the computer seat");
        });
    }

    // By e-mail, a real table's result entered in the form (record "hand", TVBD): the form travels with the
    // result and the receiver's copy checks on import that its mapping gives the result; a file whose form
    // was changed (a fate) after the result was worked out is refused with the reason, nothing changes.
    void pbemHandForm() {
        pbemTableBattle(QStringLiteral("battles=tvbd"), 4103, 29, [](const GameState& at, Files* files) {
            QString error;
            QList<battle::TableUnit> units;
            QVERIFY2(battle::tableUnits(*rulesData(), at, &units, &error), qPrintable(error));
            const QStringList lost[2];
            battle::TableRecord record;
            QVERIFY2(battle::handRecord(*rulesData(), at, 1, sampleForm(units, QStringLiteral("tvbd")), lost,
                                        &record, &error),
                     qPrintable(error));
            battle::RecordCheck check;
            QVERIFY2(battle::replayRecord(*rulesData(), at, record, &check, &error), qPrintable(error));
            files->honest = withRecord(*rulesData(), check.expected, record);
            files->cheat = check.expected.actions(*rulesData());
            files->cheat.front() += QStringLiteral(" @") + battle::encodeRecord(changedFate(record, 1));
            files->refusal = QStringLiteral("is not the result of the battle's record (the form entered");
        });
    }

    // The mapping's values are data (scenarios/battle-mapping.json, each ruleset's "result"): the mapping in
    // use is the file's, a key the file leaves out keeps the built-in value, and a bad value is refused with
    // the file's place and the problem.
    void mappingFromTheDataFile() {
        QFile f(battle::defaultMappingPath());
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QJsonObject doc = QJsonDocument::fromJson(f.readAll()).object();
        for (const QString& rules : {QStringLiteral("tvbd"), QStringLiteral("tercios")}) {
            const QJsonObject r = doc.value(rules).toObject().value(QStringLiteral("result")).toObject();
            QVERIFY2(r.contains(QStringLiteral("pursuit")) && r.contains(QStringLiteral("source")),
                     qPrintable(rules));
            const battle::LinkMapping m = battle::defaultMapping(rules);
            QCOMPARE(m.base, r.value(QStringLiteral("base")).toDouble());
            QCOMPARE(m.routedWeight, r.value(QStringLiteral("routedWeight")).toDouble());
            QCOMPARE(m.scale, r.value(QStringLiteral("scale")).toDouble());
            QCOMPARE(m.pursuit, r.value(QStringLiteral("pursuit")).toDouble());
            QCOMPARE(m.loserMinimum, r.value(QStringLiteral("loserMinimum")).toDouble());
            QCOMPARE(m.leaderModifier, r.value(QStringLiteral("leaderModifier")).toInt());
        }
        QCOMPARE(battle::defaultMapping(QStringLiteral("tvbd")).leaderModifier, -2);
        QCOMPARE(battle::defaultMapping(QStringLiteral("tercios")).leaderModifier, 0);
        // an owner's edit of one key: the others stay
        battle::LinkMapping m = battle::builtInMapping(QStringLiteral("tvbd"));
        QString error;
        QVERIFY2(battle::linkMappingFromJson(QJsonObject{{"pursuit", 0.2}, {"leaderModifier", -1}},
                                             "f: tvbd.result", &m, &error),
                 qPrintable(error));
        QCOMPARE(m.pursuit, 0.2);
        QCOMPARE(m.leaderModifier, -1);
        QCOMPARE(m.base, battle::builtInMapping(QStringLiteral("tvbd")).base);
        // bad values
        const QList<std::pair<QJsonObject, QString>> bad = {
            {QJsonObject{{"pursuit", 1.5}}, "f: tvbd.result.pursuit: expected a number from 0 to 1"},
            {QJsonObject{{"scale", "one"}}, "f: tvbd.result.scale: expected a number from 0 to 5"},
            {QJsonObject{{"leaderModifier", -1.5}},
             "f: tvbd.result.leaderModifier: expected a whole number from -10 to 10"},
            {QJsonObject{{"base", -0.1}}, "f: tvbd.result.base: expected a number from 0 to 1"}};
        for (const auto& [o, message] : bad) {
            battle::LinkMapping x;
            QVERIFY(!battle::linkMappingFromJson(o, "f: tvbd.result", &x, &error));
            QCOMPARE(error, message);
        }
        // an owner edits the file of a data directory: the next run maps with it, without recompiling
        QTemporaryDir dir;
        QVERIFY(copyDataDir(dir.path(), false));
        const QString path = dir.filePath(QStringLiteral("scenarios/battle-mapping.json"));
        auto withResult = [&](const QJsonValue& pursuit) {
            QJsonObject root = doc, tvbd = root.value(QStringLiteral("tvbd")).toObject();
            QJsonObject result = tvbd.value(QStringLiteral("result")).toObject();
            result.insert(QStringLiteral("pursuit"), pursuit);
            tvbd.insert(QStringLiteral("result"), result);
            root.insert(QStringLiteral("tvbd"), tvbd);
            QFile out(path);
            QFile::remove(path);
            return out.open(QIODevice::WriteOnly) && out.write(QJsonDocument(root).toJson()) > 0;
        };
        auto calibrate = [&](int* code) {
            return runCliIn(dir.path(), {"battle-link", "calibrate", "--rules", "tvbd", "--games", "1"},
                            code);
        };
        int code = -1;
        QVERIFY(withResult(0.3));
        QString out = calibrate(&code);
        QVERIFY2(code == 0 && out.contains(QStringLiteral("pursuit 0.3,")), qPrintable(out));
        QVERIFY(withResult(QStringLiteral("high")));
        out = calibrate(&code);
        QVERIFY2(code != 0 && out.contains(QStringLiteral(
                                  "battle-mapping.json: tvbd.result.pursuit: expected a number")),
                 qPrintable(out));
    }

    // docs/linked-battles.md "The mapping": the share of each side's loss capacity, the pursuit and the
    // loser's minimum, a side wiped out, and 12.28's tie rule for draws and unfinished battles.
    void mappingArithmetic() {
        battle::LinkMapping m;
        m.base = 0.0;
        m.scale = 1.0;
        m.routedWeight = 0.5;
        m.pursuit = 0.0;
        m.loserMinimum = 1.0;
        battle::TableResult t;
        t.winner = 0;
        t.sides[0] = {10, 2, 2, 6, {}}; // (2 + 0.5 x 2) / 10 = 0.3
        t.sides[1] = {8, 0, 0, 8, {}};  // nothing lost, but beaten
        const int cap[2] = {20, 12};
        bool att = false;
        int loss[2] = {-1, -1};
        battle::mapNumbers(t, cap, false, m, &att, loss);
        QVERIFY(att);
        QCOMPARE(loss[0], 6);
        QCOMPARE(loss[1], 1); // the loser's minimum
        m.pursuit = 0.25;     // the loser: 0 + 0.25 x 12
        battle::mapNumbers(t, cap, false, m, &att, loss);
        QCOMPARE(loss[1], 3);
        QCOMPARE(loss[0], 6); // the winner has no pursuit
        m.base = 0.1;         // every side: 0.1 x capacity more
        battle::mapNumbers(t, cap, false, m, &att, loss);
        QCOMPARE(loss[0], 8);
        t.sides[1] = {8, 8, 0, 0, {}}; // wiped out: the whole force
        battle::mapNumbers(t, cap, false, m, &att, loss);
        QCOMPARE(loss[1], 12);
        t.winner = 2; // a draw: the defender unless only the attacker is Dynamic-led (12.28)
        battle::mapNumbers(t, cap, false, m, &att, loss);
        QVERIFY(!att);
        battle::mapNumbers(t, cap, true, m, &att, loss);
        QVERIFY(att);
        t.winner = -1;
        battle::mapNumbers(t, cap, false, m, &att, loss);
        QVERIFY(!att);
    }

    // A campaign battle sent to TVBD and back, auto-resolved: the export of the battle on top of the
    // state, the TVBD engine's end state, the mapped result entered and confirmed, then 12.31 with those
    // Loss Numbers and 12.28 with that winner. The same state gives the same battle (PBEM check).
    void autoResolvedBackIntoTheCampaign_data() { rulesetRows(); }
    void autoResolvedBackIntoTheCampaign() {
        QFETCH(QString, rules);
        Rules f;
        Battle b;
        QVERIFY(landshut(f, rules, &b));
        QVERIFY(
            f.e.prompt(f.s).contains(rules == QLatin1String("tvbd") ? "Tilly's Very Bad Day" : "Tercios"));
        const quint64 seed = battle::linkedBattleSeed(f.s);
        QCOMPARE(battle::linkedBattleSeed(f.s), seed);
        const battle::LinkMapping mapping = battle::defaultMapping(rules);
        battle::LinkedResult res, again;
        battle::TableResult table;
        QString error;
        QStringList log;
        QVERIFY2(battle::autoResolveLinked(f.d(), f.s, rules, seed, mapping, &res, &table, &error, &log),
                 qPrintable(error));
        QVERIFY(!log.isEmpty()); // the tactical battle's own log
        QVERIFY(table.winner >= 0);
        QVERIFY(table.sides[0].units > 0 && table.sides[1].units > 0);
        QCOMPARE(table.sides[0].units,
                 table.sides[0].destroyed + table.sides[0].routed + table.sides[0].remaining);
        QVERIFY(battle::autoResolveLinked(f.d(), f.s, rules, seed, mapping, &again, nullptr, &error));
        QCOMPARE(again.actions(f.d()), res.actions(f.d()));
        QVERIFY(!battle::autoResolveLinked(f.d(), f.s, QStringLiteral("napoleon"), seed, mapping, &again,
                                           nullptr, &error));
        QVERIFY(error.contains("napoleon"));
        // the one-call form a GUI or a bot uses, and the defender's check before confirming (PBEM)
        battle::LinkedResult top;
        QVERIFY2(battle::autoResolveTop(f.d(), f.s, &top, &error), qPrintable(error));
        QCOMPARE(top.actions(f.d()), res.actions(f.d()));
        QVERIFY(!battle::matchesAutoResolve(f.d(), f.s, &error)); // nothing entered yet
        {
            Rules wrong = f;
            QVERIFY(wrong.act(QStringLiteral("battle-result %1 %2 %3")
                                  .arg(res.attackerWins ? "defender" : "attacker")
                                  .arg(res.lossNumber[0])
                                  .arg(res.lossNumber[1])));
            QVERIFY(wrong.act("battle-leader done"));
            QVERIFY(!battle::matchesAutoResolve(wrong.d(), wrong.s, &error));
            QVERIFY(error.contains(res.actions(f.d()).front()));
        }
        for (const QString& a : res.actions(f.d()))
            QVERIFY2(f.act(a), qPrintable(a));
        QVERIFY2(battle::matchesAutoResolve(f.d(), f.s, &error), qPrintable(error));
        QVERIFY(f.act("battle confirm"));
        QVERIFY(f.runUntil([&] { return !f.combat(); }));
        QVERIFY(f.logged(QStringLiteral("Catholic takes")));
        QVERIFY(f.logged(QStringLiteral("of Loss Number %1").arg(res.lossNumber[0])));
        QVERIFY(f.logged(QStringLiteral("of Loss Number %1").arg(res.lossNumber[1])));
        QVERIFY(f.logged(
                    QStringLiteral("12.28 %1 wins the battle at Landshut")
                        .arg(res.attackerWins ? QStringLiteral("Catholic") : QStringLiteral("Protestant"))) ||
                f.logged(QStringLiteral("12.43"))); // a winner eliminated by its losses loses (12.28)
    }

    // A record names the battle data it was made with (docs/linked-battles.md "The battle's record"): when
    // its check fails on a copy with other battle data, the reason says so; a record that still gives the
    // same battle checks as before; a record written before the field has no such note. The hash is of each
    // file's content, not its formatting; `data check` prints it and `--data DIR` takes the battle files from
    // DIR.
    void battleDataNamedInTheRecord_data() { rulesetRows(); }
    void battleDataNamedInTheRecord() {
        QFETCH(QString, rules);
        Rules f;
        Battle b;
        QVERIFY(landshut(f, rules, &b));
        QString attachment, error;
        QVERIFY2(battle::autoRecord(f.d(), f.s, &attachment, &error), qPrintable(error));
        battle::TableRecord record;
        QVERIFY2(battle::decodeRecord(attachment, &record, &error), qPrintable(error));
        QCOMPARE(record.battleData, battle::battleDataHash(rules));
        QCOMPARE(record.battleData, battle::battleDataHashIn(wp::findDataDir(), rules));
        QVERIFY2(battle::replayRecord(f.d(), f.s, record, nullptr, &error), qPrintable(error));
        battle::TableRecord other = record;
        other.battleData = QStringLiteral("0123456789abcdef");
        battle::TableRecord decoded;
        QVERIFY2(battle::decodeRecord(battle::encodeRecord(other), &decoded, &error), qPrintable(error));
        QCOMPARE(decoded.battleData, other.battleData);
        // made with other battle data, but giving the same battle here: it still checks
        QVERIFY2(battle::replayRecord(f.d(), f.s, decoded, nullptr, &error), qPrintable(error));
        // a result the record does not give: the reason names the other battle data as the likely cause
        battle::LinkedResult res;
        QVERIFY2(battle::autoResolveTop(f.d(), f.s, &res, &error), qPrintable(error));
        battle::LinkedResult wrong = res;
        wrong.lossNumber[0] += 1; // as another copy's result mapping might give
        QVERIFY(!battle::checkAttachedResult(f.d(), f.s, withRecord(f.d(), wrong, other), kNone, nullptr,
                                             &error));
        QVERIFY2(error.contains(QStringLiteral("is not the result of the battle's record")) &&
                     error.endsWith(
                         QStringLiteral("(the record was made with other battle data, 0123456789abcdef, "
                                        "than this copy's %1: scenarios/battle-mapping.json, "
                                        "scenarios/battle-terrain.json or resources/tactical/%2.json "
                                        "differ between the copies, and both players need the same to "
                                        "check a battle)")
                             .arg(record.battleData, rules)),
                 qPrintable(error));
        QVERIFY(!battle::checkAttachedResult(f.d(), f.s, withRecord(f.d(), wrong, record), kNone, nullptr,
                                             &error));
        QVERIFY2(!error.contains(QStringLiteral("other battle data")), qPrintable(error)); // the same data
        other.seed += 1; // a record that does not replay here
        QVERIFY(!battle::replayRecord(f.d(), f.s, other, nullptr, &error));
        QVERIFY2(error.contains(QStringLiteral("battle seed")) &&
                     error.contains(QStringLiteral("other battle data")),
                 qPrintable(error));
        other.seed = record.seed;
        other.battleData.clear(); // a record of an earlier version
        QVERIFY(!battle::recordToJson(other).contains(QStringLiteral("battleData")));
        QVERIFY2(battle::replayRecord(f.d(), f.s, other, nullptr, &error), qPrintable(error));
        QJsonObject bad = battle::recordToJson(record);
        bad.insert(QStringLiteral("battleData"), QStringLiteral("xyz"));
        QVERIFY(!battle::recordFromJson(bad, &decoded, &error));
        QCOMPARE(error, QStringLiteral("$.battleData: expected 16 hexadecimal digits"));

        // a copy of the data directory: the same content in another layout gives the same hash; an owner's
        // edit of the mapping, or a missing terrain file, another
        QTemporaryDir dir;
        QVERIFY(copyDataDir(dir.path(), true));
        QCOMPARE(battle::battleDataHashIn(dir.path(), rules), record.battleData);
        int code = -1;
        QString text = runCliIn(dir.path(), {"data", "check"}, &code);
        QVERIFY2(code == 0 && text.contains(QStringLiteral("battle data (scenarios/battle-*.json, "
                                                           "resources/tactical/): tvbd %1, tercios %2")
                                                .arg(battle::battleDataHash(QStringLiteral("tvbd")),
                                                     battle::battleDataHash(QStringLiteral("tercios")))),
                 qPrintable(text));
        const QString mapping = dir.filePath(QStringLiteral("scenarios/battle-mapping.json"));
        QFile m(mapping);
        QVERIFY(m.open(QIODevice::ReadOnly));
        QJsonObject root = QJsonDocument::fromJson(m.readAll()).object();
        m.close();
        QJsonObject section = root.value(rules).toObject(), result = section.value("result").toObject();
        result.insert(QStringLiteral("pursuit"), 0.3);
        section.insert(QStringLiteral("result"), result);
        root.insert(rules, section);
        QVERIFY(m.open(QIODevice::WriteOnly | QIODevice::Truncate));
        m.write(QJsonDocument(root).toJson());
        m.close();
        const QString edited = battle::battleDataHashIn(dir.path(), rules);
        QVERIFY(edited != record.battleData);
        // --data DIR: the battle files come from DIR too (here the start file of a PBEM game names them)
        QTemporaryDir game;
        const QString startFile = game.filePath(QStringLiteral("start.pbem"));
        text = runCli({"pbem", "new", "--dir", game.path(), "--data", dir.path(), "--side", "catholic",
                       "--scenario", "campaign", "--option", "battles=" + rules, "--out", startFile},
                      &code);
        QVERIFY2(code == 0, qPrintable(text));
        QFile sf(startFile);
        QVERIFY(sf.open(QIODevice::ReadOnly));
        QByteArray raw;
        QVERIFY2(save::gzipDecompress(sf.readAll(), &raw, &error), qPrintable(error));
        QCOMPARE(QJsonDocument::fromJson(raw).object().value("battleData").toObject().value(rules).toString(),
                 edited);
        QVERIFY(QFile::remove(dir.filePath(QStringLiteral("scenarios/battle-terrain.json"))));
        QVERIFY(battle::battleDataHashIn(dir.path(), rules) != edited);
    }

    // 12.4 for a table without Commanders (Tercios; docs/linked-battles.md "Leaders lost"): every leader
    // makes the 12.41 roll (d10 >= Loss rating), the beaten side's at +1 and the winner's at -1, from the
    // battle's seed; none for the defender at odds of 1-4 or less. The Tercios auto-resolve uses it.
    void terciosLeaderLosses() {
        Rules f;
        Battle b;
        QVERIFY(landshut(f, QStringLiteral("tercios"), &b));
        const int tilly = f.leader("tilly"), mansfeld = f.leader("mansfeld");
        auto chance = [&](int l, int drm) { // P(d10 + drm >= Loss rating), the d10 reading 0-9 (2.5)
            return std::clamp((10.0 - (f.d().leaders[l].loss - drm)) / 10.0, 0.0, 1.0);
        };
        const int n = 600;
        int lost[2] = {0, 0};
        for (int k = 0; k < n; ++k) {
            battle::TableResult t;
            t.winner = 0; // Tilly's army holds the field
            battle::rollTableLeaderLosses(f.d(), f.s, static_cast<quint64>(k) * 7919ULL + 11, &t);
            battle::TableResult again;
            again.winner = 0;
            battle::rollTableLeaderLosses(f.d(), f.s, static_cast<quint64>(k) * 7919ULL + 11, &again);
            QCOMPARE(again.sides[0].leadersLost, t.sides[0].leadersLost); // the same battle, the same die
            QCOMPARE(again.sides[1].leadersLost, t.sides[1].leadersLost);
            lost[0] += t.sides[0].leadersLost.contains(QStringLiteral("tilly"));
            lost[1] += t.sides[1].leadersLost.contains(QStringLiteral("mansfeld"));
            QVERIFY(t.sides[0].leadersLost.size() <= 1 && t.sides[1].leadersLost.size() <= 1);
        }
        // within five standard errors of the 12.41 chances with the winner's -1 and the loser's +1
        const double pT = chance(tilly, -1), pM = chance(mansfeld, +1);
        const double eT = 5 * std::sqrt(pT * (1 - pT) / n) + 1e-9,
                     eM = 5 * std::sqrt(pM * (1 - pM) / n) + 1e-9;
        QVERIFY2(std::abs(lost[0] / double(n) - pT) <= eT, qPrintable(QString::number(lost[0])));
        QVERIFY2(std::abs(lost[1] / double(n) - pM) <= eM, qPrintable(QString::number(lost[1])));
        QVERIFY(pM > pT); // the beaten side's leaders are the likelier to fall

        // The Tercios auto-resolve rolls them: its leaders lost are the roll's for the battle it reports.
        int rolled = 0;
        for (quint64 seed = 1; seed <= 24; ++seed) {
            battle::LinkedResult res;
            battle::TableResult table;
            QString error;
            QVERIFY2(battle::autoResolveLinked(f.d(), f.s, QStringLiteral("tercios"), seed,
                                               battle::defaultMapping(QStringLiteral("tercios")), &res,
                                               &table, &error),
                     qPrintable(error));
            battle::TableResult bare = table;
            bare.sides[0].leadersLost.clear();
            bare.sides[1].leadersLost.clear();
            battle::rollTableLeaderLosses(f.d(), f.s, seed, &bare);
            QCOMPARE(table.sides[0].leadersLost, bare.sides[0].leadersLost);
            QCOMPARE(table.sides[1].leadersLost, bare.sides[1].leadersLost);
            rolled += static_cast<int>(res.leadersLost.size());
        }
        QVERIFY(rolled > 0); // an auto-resolved Tercios battle can kill a campaign leader

        // 12.4: at odds of 1-4 or less the defender's leaders do not roll (one reduced attacker left
        // against Mansfeld's force and every free Protestant Mercenary and Veteran).
        auto& frame = std::get<CombatFrame>(f.s.frames.back());
        frame.attackUnits.resize(1);
        f.s.units[frame.attackUnits.front()].steps = 1;
        const int landshut = f.city("landshut");
        for (size_t u = 0; u < f.s.units.size(); ++u) {
            const UnitType& t = f.d().unitTypes[f.s.units[u].type];
            if (f.s.units[u].loc == kPool &&
                t.nationality == f.d().nationality(QStringLiteral("protestant"))) {
                f.s.units[u].loc = static_cast<int16_t>(landshut);
                f.s.units[u].steps = 2;
                frame.defendUnits.push_back(static_cast<int16_t>(u));
            }
        }
        QVERIFY(cfSum(f.d(), f.s, std::vector<int>(frame.attackUnits.begin(), frame.attackUnits.end())) * 4 <=
                cfSum(f.d(), f.s, std::vector<int>(frame.defendUnits.begin(), frame.defendUnits.end())));
        for (int k = 0; k < 100; ++k) {
            battle::TableResult t;
            t.winner = 0;
            battle::rollTableLeaderLosses(f.d(), f.s, static_cast<quint64>(k), &t);
            QVERIFY(t.sides[1].leadersLost.isEmpty());
        }
    }

    // The form of a real table (docs/linked-battles.md): read, mapped, its leaders checked against the
    // battle; mistakes name the file and the line.
    void handEnteredForm() {
        Rules f;
        Battle b;
        QVERIFY(landshut(f, QStringLiteral("tvbd"), &b));
        battle::TableResult t;
        QString error;
        QVERIFY2(battle::parseTableForm(QStringLiteral("# Landshut on the kitchen table\nwinner defender\n"
                                                       "attacker units 4 destroyed 2 routed 1 lost tilly\n"
                                                       "defender units 4 destroyed 1\n"),
                                        QStringLiteral("landshut.txt"), &t, &error),
                 qPrintable(error));
        QCOMPARE(t.winner, 1);
        QCOMPARE(t.sides[0].remaining, 1);
        QCOMPARE(t.sides[0].leadersLost, QStringList{QStringLiteral("tilly")});
        battle::LinkedResult res;
        QVERIFY2(battle::mapResult(f.d(), f.s, t, battle::LinkMapping{}, &res, &error), qPrintable(error));
        QVERIFY(!res.attackerWins);
        QVERIFY(res.lossNumber[0] > res.lossNumber[1]);
        battle::TableResult other;
        battle::LinkedResult wrong;
        QVERIFY(
            battle::parseTableForm(QStringLiteral("winner attacker\nattacker units 2\ndefender units 2 lost "
                                                  "pappenheim\n"),
                                   QStringLiteral("f.txt"), &other, &error));
        QVERIFY(!battle::mapResult(f.d(), f.s, other, battle::LinkMapping{}, &wrong, &error));
        QVERIFY(error.contains("pappenheim") && error.contains("not in the battle"));
        {
            // Every leader of the battle lost: the engine closes the list itself, so no "battle-leader done"
            Rules all = f;
            battle::TableResult both = t;
            both.sides[1].leadersLost = {QStringLiteral("mansfeld")};
            battle::LinkedResult r2;
            QVERIFY2(battle::mapResult(all.d(), all.s, both, battle::LinkMapping{}, &r2, &error),
                     qPrintable(error));
            QVERIFY(!r2.leadersDone);
            QCOMPARE(r2.actions(all.d()).size(), 3);
            QVERIFY(!r2.actions(all.d()).contains(QStringLiteral("battle-leader done")));
            for (const QString& a : r2.actions(all.d()))
                QVERIFY2(all.act(a), qPrintable(a));
            QVERIFY(all.act("battle confirm"));
        }
        const QStringList actions = res.actions(f.d());
        QCOMPARE(actions.size(), 3);
        QVERIFY(actions[0].startsWith("battle-result defender"));
        QCOMPARE(actions[1], QStringLiteral("battle-leader tilly"));
        for (const QString& a : actions)
            QVERIFY2(f.act(a), qPrintable(a));
        QVERIFY(f.act("battle confirm"));
        QVERIFY(f.runUntil([&] { return !f.combat(); }));
        QCOMPARE(f.s.leaders[f.leader("tilly")].status, LeaderStatus::Dead);
        QVERIFY(f.logged("12.28 Protestant wins the battle at Landshut"));

        struct Bad {
            const char* text;
            const char* message;
        };
        const Bad bad[] = {
            {"winner nobody\n", "f.txt:1: 'winner' needs"},
            {"winner attacker\nattacker units 3 destroyed 5\ndefender units 2\n",
             "f.txt:2: attacker: 5 destroyed"},
            {"winner attacker\nattacker units x\n", "f.txt:2: 'units' needs a whole number"},
            {"winner attacker\nattacker units 3 shaken 1\n", "f.txt:2: unknown field 'shaken'"},
            {"# no result\n", "f.txt: the form needs"},
            {"winner attacker\nsiege 3\n", "f.txt:2: unknown line 'siege'"},
        };
        for (const Bad& k : bad) {
            QVERIFY(!battle::parseTableForm(QLatin1String(k.text), QStringLiteral("f.txt"), &t, &error));
            QVERIFY2(error.startsWith(QLatin1String(k.message)), qPrintable(error));
        }
    }

    // A real table's result entered unit by unit (docs/linked-battles.md "The form", record kind "hand"):
    // the exported scenario's units listed (a Large Pike+Shot counts 2), the form's counts derived from
    // the fates, its record encoded and replayed — the mapping of the form must give exactly the result
    // entered; a changed fate, a missing unit or a state the ruleset does not allow is refused with the
    // reason.
    void handForm_data() { rulesetRows(); }
    void handForm() {
        QFETCH(QString, rules);
        const bool tvbd = rules == QLatin1String("tvbd");
        Rules f;
        Battle b;
        QVERIFY(landshut(f, rules, &b));
        QString error;
        QList<battle::TableUnit> units;
        QVERIFY2(battle::tableUnits(f.d(), f.s, &units, &error), qPrintable(error));
        // the units of the scenario the players set up
        QJsonObject scenario;
        QVERIFY2(battle::exportLinked(f.d(), f.s, rules, battle::linkedBattleSeed(f.s), &scenario, &error),
                 qPrintable(error));
        QList<battle::TableUnit> again;
        QVERIFY2(battle::scenarioUnits(rules, scenario, &again, &error), qPrintable(error));
        QCOMPARE(again.size(), units.size());
        int perSide[2] = {0, 0}, weight[2] = {0, 0};
        for (const battle::TableUnit& u : units) {
            QVERIFY(!u.id.isEmpty() && !u.name.isEmpty() && !u.type.isEmpty());
            QVERIFY2(u.startResolve >= 1, qPrintable(u.id)); // TVBD resolve, Tercios Stamina
            QCOMPARE(u.weight, u.type.startsWith(QLatin1String("Large ")) ? 2 : 1);
            QCOMPARE(u.fate, QStringLiteral("remaining"));
            perSide[u.side] += 1;
            weight[u.side] += u.weight;
        }
        QVERIFY(perSide[0] >= 2 && perSide[1] >= 2);
        // the same units as the auto-resolve counts (tableResultFromTvbd / tableResultFromTercios)
        battle::LinkedResult autoResult;
        battle::TableResult autoTable;
        QVERIFY2(battle::autoResolveLinked(f.d(), f.s, rules, battle::linkedBattleSeed(f.s),
                                           battle::defaultMapping(rules), &autoResult, &autoTable, &error),
                 qPrintable(error));
        QCOMPARE(autoTable.sides[0].units, weight[0]);
        QCOMPARE(autoTable.sides[1].units, weight[1]);

        const QList<battle::TableUnit> form = sampleForm(units, rules);
        const QStringList lost[2] = {{QStringLiteral("tilly")}, {}};
        battle::TableRecord record;
        QVERIFY2(battle::handRecord(f.d(), f.s, 1, form, lost, &record, &error), qPrintable(error));
        QCOMPARE(record.by, QStringLiteral("hand"));
        // the attachment round trip
        battle::TableRecord back;
        QVERIFY2(battle::decodeRecord(battle::encodeRecord(record), &back, &error), qPrintable(error));
        QCOMPARE(back.winner, 1);
        QCOMPARE(back.units.size(), form.size());
        QCOMPARE(back.leadersLost[0], lost[0]);
        for (qsizetype i = 0; i < form.size(); ++i) {
            QCOMPARE(back.units[i].fate, form[i].fate);
            if (form[i].fate == QLatin1String("remaining")) {
                QCOMPARE(tvbd ? back.units[i].resolve : back.units[i].wear,
                         tvbd ? form[i].resolve : form[i].wear);
                QCOMPARE(back.units[i].disordered, !tvbd && form[i].disordered);
            }
        }
        // replayed: the counts from the fates (weights), the leaders as entered, no roll
        battle::RecordCheck check;
        QVERIFY2(battle::replayRecord(f.d(), f.s, back, &check, &error), qPrintable(error));
        battle::TableResult direct;
        QVERIFY2(battle::tableResultFromUnits(rules, form, 1, lost, &direct, &error), qPrintable(error));
        for (int t = 0; t < 2; ++t) {
            QCOMPARE(check.table.sides[t].units, weight[t]);
            QCOMPARE(check.table.sides[t].destroyed, direct.sides[t].destroyed);
            QCOMPARE(check.table.sides[t].routed, tvbd ? direct.sides[t].routed : 0);
            QCOMPARE(check.table.sides[t].remaining + check.table.sides[t].destroyed +
                         check.table.sides[t].routed,
                     weight[t]);
        }
        QCOMPARE(check.table.sides[0].leadersLost, lost[0]);
        QVERIFY(check.table.sides[1].leadersLost.isEmpty());
        battle::LinkedResult mapped;
        QVERIFY2(battle::mapResult(f.d(), f.s, direct, battle::defaultMapping(rules), &mapped, &error),
                 qPrintable(error));
        QCOMPARE(check.expected.actions(f.d()), mapped.actions(f.d()));
        QCOMPARE(check.units.size(), form.size());
        QVERIFY2(check.log.join('\n').contains(tvbd ? QStringLiteral("remaining, resolve")
                                                    : QStringLiteral("Weary")),
                 qPrintable(check.log.join('\n')));
        const QStringList texts = withRecord(f.d(), mapped, record);
        QVERIFY2(battle::checkAttachedResult(f.d(), f.s, texts, kNone, nullptr, &error), qPrintable(error));
        // by e-mail too: a hand-entered form has no tactical moves to restrict
        QVERIFY2(battle::checkAttachedResult(f.d(), f.s, texts, kProtestant, nullptr, &error),
                 qPrintable(error));

        // A changed fate (a defender's remaining unit destroyed) with the result entered: refused
        const battle::TableRecord changed = changedFate(record, 1);
        battle::TableResult changedTable;
        QVERIFY(battle::tableResultFromUnits(rules, changed.units, 1, lost, &changedTable, &error));
        battle::LinkedResult changedResult;
        QVERIFY(battle::mapResult(f.d(), f.s, changedTable, battle::defaultMapping(rules), &changedResult,
                                  &error));
        QVERIFY(changedResult.actions(f.d()) != mapped.actions(f.d())); // the change shows in the result
        QStringList tampered = mapped.actions(f.d());
        tampered.front() += QStringLiteral(" @") + battle::encodeRecord(changed);
        QVERIFY(!battle::checkAttachedResult(f.d(), f.s, tampered, kNone, nullptr, &error));
        QVERIFY2(error.contains(QStringLiteral("is not the result of the battle's record (the form entered")),
                 qPrintable(error));
        // A form that does not hold: every unit once, with a state its ruleset allows
        struct Bad {
            std::function<void(battle::TableRecord&)> edit;
            const char* message;
        };
        const QList<Bad> bad = {
            {[](battle::TableRecord& r) { r.units.removeLast(); }, "the form has no fate for unit"},
            {[](battle::TableRecord& r) { r.units.last().id = QStringLiteral("nowhere"); },
             "the form names unit 'nowhere', which is not in the battle"},
            {[](battle::TableRecord& r) { r.units << r.units.front(); }, "twice"},
            {[&](battle::TableRecord& r) {
                 battle::TableUnit& u = r.units.last();
                 u.fate = QStringLiteral("remaining");
                 u.resolve = 0;
                 u.wear = u.startResolve + 1; // TVBD: no resolve left; Tercios: past its Stamina
             },
             tvbd ? "a remaining unit has 1 to" : "a remaining unit has a Wear of 0 to"},
            {[](battle::TableRecord& r) { r.units.front().fate = QStringLiteral("fled"); },
             "its fate is 'fled'"},
            {[](battle::TableRecord& r) { r.leadersLost[1] << QStringLiteral("pappenheim"); },
             "'pappenheim' is not in the battle"},
        };
        for (const Bad& k : bad) {
            battle::TableRecord r = record;
            k.edit(r);
            battle::TableRecord decoded;
            QVERIFY2(battle::decodeRecord(battle::encodeRecord(r), &decoded, &error), qPrintable(error));
            QVERIFY(!battle::replayRecord(f.d(), f.s, decoded, nullptr, &error));
            QVERIFY2(error.contains(QLatin1String(k.message)), qPrintable(error));
        }
        if (!tvbd) { // Tercios has no rout status
            battle::TableRecord r = record;
            r.units.front().fate = QStringLiteral("routed");
            QVERIFY(!battle::replayRecord(f.d(), f.s, r, nullptr, &error));
            QVERIFY2(error.contains("Tercios has no rout status"), qPrintable(error));
        }
        // entered in the campaign and confirmed: the leader entered dies, the winner holds the field
        for (const QString& a : texts)
            QVERIFY2(f.act(a), qPrintable(a));
        QVERIFY2(battle::matchesRecord(f.d(), f.s, battle::encodeRecord(record), &check, &error),
                 qPrintable(error));
        QVERIFY(!battle::matchesRecord(f.d(), f.s, battle::encodeRecord(changed), nullptr, &error));
        QVERIFY2(error.contains("the form entered by hand gives"), qPrintable(error));
        QVERIFY(f.act("battle confirm"));
        QVERIFY(f.runUntil([&] { return !f.combat(); }));
        QCOMPARE(f.s.leaders[f.leader("tilly")].status, LeaderStatus::Dead);
        QVERIFY(f.logged("12.28 Protestant wins the battle at Landshut"));
    }

    // A game with a real table's form saved and loaded: the save verifies, the battle report lists the
    // form unit by unit; a save whose form was changed (a fate) still loads but fails its check with the
    // reason; an old save's hand-entered result without an attachment still loads and reports.
    void handFormSaveRoundTrip() {
        Game g(rulesData());
        QString error;
        QVERIFY2(playToTheTable(g, QStringLiteral("tvbd"), 3), qPrintable(g.prompt()));
        const qsizetype at = g.actions().size();
        QList<battle::TableUnit> units;
        QVERIFY2(battle::tableUnits(g.data(), g.state(), &units, &error), qPrintable(error));
        const QList<battle::TableUnit> form = sampleForm(units, QStringLiteral("tvbd"));
        const QStringList lost[2];
        battle::TableRecord record;
        QVERIFY2(battle::handRecord(g.data(), g.state(), 0, form, lost, &record, &error), qPrintable(error));
        battle::RecordCheck check;
        QVERIFY2(battle::replayRecord(g.data(), g.state(), record, &check, &error), qPrintable(error));
        const GameState before = g.state();
        enterAndConfirm(g, check, record);
        save::SaveGame sg = save::fromGame(g);
        Game r(rulesData());
        reloaded(g, QStringLiteral("hand.tyw"), &r);
        if (QTest::currentTestFailed())
            return;
        auto report = [&](const Game& game, QList<battle::BattleRecord>* out) {
            return campaignReport(game, QStringLiteral("tvbd"), 3, out, &error);
        };
        QList<battle::BattleRecord> battles;
        QVERIFY2(report(r, &battles), qPrintable(error));
        QCOMPARE(battles.back().evidence, QStringLiteral("hand"));
        QCOMPARE(battles.back().recordOk, 1);
        QCOMPARE(battles.back().form.size(), form.size() + 1); // a heading, then a line per unit
        QVERIFY(battles.back().form.join('\n').contains(form.front().name + QStringLiteral(" (")));

        QTemporaryDir tmp;
        const QString path = tmp.filePath("hand.tyw");
        QVERIFY(save::writeFile(path, sg, &error));
        int code = -1;
        QString text = runCli({"save", "verify", path}, &code);
        QVERIFY2(code == 0 && text.contains("1 table battle records replayed"), qPrintable(text));
        text = runCli({"battle-link", "report", "--save", path}, &code);
        QVERIFY2(code == 0 && text.contains("a real table: the form entered gives the result") &&
                     text.contains(QStringLiteral("): destroyed")) &&
                     text.contains(QStringLiteral("remaining, resolve")),
                 qPrintable(text));
        text = runCli({"battle-link", "replay", "--save", path, "--battle", "1", "--out",
                       tmp.filePath("b1.json"), "--log"},
                      &code);
        QVERIFY2(code == 0 && text.contains("entered in the form") && text.contains("  | attacker"),
                 qPrintable(text));
        QVERIFY(!QFile::exists(tmp.filePath("b1.json"))); // no tactical battle to open
        QVERIFY(QFile::exists(tmp.filePath("b1-scenario.json")));

        // the form changed in the save (a fate): it loads, its check fails with the reason
        QString attachment;
        const QString notation = splitAttachment(sg.actions[at], &attachment);
        const battle::TableRecord changed = changedFate(record, 0); // the winner's: a loss for him
        battle::RecordCheck changedCheck;
        QVERIFY2(battle::replayRecord(g.data(), before, changed, &changedCheck, &error), qPrintable(error));
        QVERIFY(changedCheck.expected.actions(g.data()) != check.expected.actions(g.data()));
        sg.actions[at] = notation + QStringLiteral(" @") + battle::encodeRecord(changed);
        const auto edited = save::parse(save::serialize(sg), QStringLiteral("changed.tyw"), &error);
        QVERIFY2(edited.has_value(), qPrintable(error));
        Game c(rulesData());
        QVERIFY2(save::replay(*edited, QStringLiteral("changed.tyw"), c, &error), qPrintable(error));
        QVERIFY(c.state() == g.state()); // the campaign does not depend on the attachment
        QVERIFY2(report(c, &battles), qPrintable(error));
        QCOMPARE(battles.back().recordOk, 0);
        QVERIFY2(battles.back().recordError.contains("the form entered by hand gives"),
                 qPrintable(battles.back().recordError));
        QVERIFY(save::writeFile(path, sg, &error));
        text = runCli({"save", "verify", path}, &code);
        QVERIFY2(code == 1 && text.contains("the battle's record does not give the result confirmed"),
                 qPrintable(text));

        // an old save: the same result without an attachment
        sg.actions[at] = notation;
        const auto old = save::parse(save::serialize(sg), QStringLiteral("old.tyw"), &error);
        QVERIFY2(old.has_value(), qPrintable(error));
        Game o(rulesData());
        QVERIFY2(save::replay(*old, QStringLiteral("old.tyw"), o, &error), qPrintable(error));
        QVERIFY(o.state() == g.state());
        QVERIFY2(report(o, &battles), qPrintable(error));
        QCOMPARE(battles.back().recordOk, -1);
        QVERIFY(battles.back().form.isEmpty());
    }

    // westphalia-cli battle-link auto|form and battle calibrate (docs/linked-battles.md): a campaign
    // replayed to its first table battle; the printed actions are legal there.
    void cli() {
        Game g(rulesData());
        QString error;
        QVERIFY2(playToTheTable(g, QStringLiteral("tvbd"), 3), qPrintable(g.prompt()));
        QTemporaryDir tmp;
        const QString actions = tmp.filePath("campaign.txt"), form = tmp.filePath("form.txt");
        {
            QFile f(actions);
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write(g.actions().join('\n').toUtf8() + "\n");
            QFile r(form);
            QVERIFY(r.open(QIODevice::WriteOnly));
            r.write("winner attacker\nattacker units 6 destroyed 1\ndefender units 6 destroyed 3 routed 2\n");
        }
        const QStringList game{"--scenario", "campaign", "--option",  "battles=tvbd",
                               "--seed",     "3",        "--actions", actions};
        int code = -1;
        for (const QString& sub : {QStringLiteral("auto"), QStringLiteral("form")}) {
            QStringList args = QStringList{"battle-link", sub} + game;
            if (sub == QLatin1String("form"))
                args << "--form" << form;
            const QString text = runCli(args, &code);
            QVERIFY2(code == 0, qPrintable(text));
            const QStringList lines = text.split('\n');
            const qsizetype at = lines.indexOf(QRegularExpression("^actions .*"));
            QVERIFY2(at >= 0, qPrintable(text));
            Game h(rulesData());
            QVERIFY(h.start(QStringLiteral("campaign"), battlesOption(QStringLiteral("tvbd")), 3, &error));
            for (const QString& a : g.actions())
                QVERIFY(h.play(a).ok);
            QStringList entered;
            for (qsizetype i = at + 1; i < lines.size() && !lines[i].isEmpty(); ++i) {
                QVERIFY2(h.play(lines[i]).ok, qPrintable(lines[i]));
                entered << lines[i];
            }
            // the defender's check (PBEM): the auto-resolved result passes, the form's need not
            QTemporaryDir t2;
            QFile both(t2.filePath("entered.txt"));
            QVERIFY(both.open(QIODevice::WriteOnly));
            both.write((g.actions() + entered).join('\n').toUtf8() + "\n");
            both.close();
            QStringList vargs{"battle-link",  "verify", "--scenario", "campaign",  "--option",
                              "battles=tvbd", "--seed", "3",          "--actions", both.fileName()};
            const QString verdict = runCli(vargs, &code);
            if (sub == QLatin1String("auto"))
                QVERIFY2(code == 0 && verdict.contains("is the auto-resolved battle"), qPrintable(verdict));
            else
                QVERIFY2(code == 0 || verdict.contains("NOT the auto-resolved battle"), qPrintable(verdict));
            QVERIFY(h.play(QStringLiteral("battle confirm")).ok);
        }
        QString text;
        for (const char* r : {"tvbd", "tercios"}) {
            text = runCli({"battle", "calibrate", "--rules", r, "--games", "3", "--seed", "4"}, &code);
            QVERIFY2(code == 0, qPrintable(text));
            QVERIFY(text.contains("attacker wins") && text.contains("CRT") &&
                    text.contains(QString::fromLatin1(r).toUpper()));
            QVERIFY(text.contains("leaders lost per battle (12.41)"));
        }
        text = runCli({"battle-link", "calibrate", "--rules", "chess"}, &code);
        QCOMPARE(code, 2);
        text = runCli(QStringList{"battle-link", "form"} + game, &code);
        QCOMPARE(code, 2);
        QVERIFY(text.contains("--form FILE is needed"));
        text = runCli({"battle-link", "auto", "--scenario", "campaign", "--actions", actions}, &code);
        QCOMPARE(code, 1); // without the option the actions do not even replay (no table step)
    }
};

QTEST_GUILESS_MAIN(TestLinked)
#include "test_linked.moc"
