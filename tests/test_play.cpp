// westphalia-cli play / fuzz and the library under them: position files (model/rules/position.h),
// invariants (model/rules/invariants.h), replay determinism.
#include "data/loader.h"
#include "rules/engine.h"
#include "rules/internal.h"
#include "rules/invariants.h"
#include "rules/position.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

using namespace wp;
using namespace wp::rules;

namespace {

struct Run {
    int code;
    QString out, err;
};

Run cli(const QStringList& args) {
    QProcess p;
    p.start(QStringLiteral(WESTPHALIA_CLI), args);
    p.waitForFinished(300000);
    return {p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1,
            QString::fromUtf8(p.readAllStandardOutput()), QString::fromUtf8(p.readAllStandardError())};
}

QString fixture(const QString& name) {
    return QStringLiteral(WESTPHALIA_TEST_DIR "/fixtures/positions/") + name;
}

std::shared_ptr<const GameData> data() {
    static std::shared_ptr<const GameData> d = [] {
        LoadResult r = loadGameData(QStringLiteral(WESTPHALIA_SOURCE_DIR));
        if (!r.ok())
            qFatal("the shipped data does not load: %s", qPrintable(r.errors.joined()));
        return r.data;
    }();
    return d;
}

bool writeFile(const QString& path, const QString& text) {
    QFile f(path);
    if (!f.open(QIODevice::WriteOnly | QIODevice::Text))
        return false;
    f.write(text.toUtf8());
    return true;
}

QStringList legalLines(const QString& out) {
    QStringList l;
    for (const QString& line : out.split(QLatin1Char('\n'), Qt::SkipEmptyParts))
        if (!line.startsWith(QLatin1Char('#')))
            l << line;
    return l;
}

QJsonObject json(const QString& text) {
    return QJsonDocument::fromJson(text.toUtf8()).object();
}

} // namespace

class TestPlay : public QObject {
    Q_OBJECT
  private slots:
    void help() {
        for (const char* cmd : {"play", "fuzz", "bench"}) {
            const Run r = cli({cmd, "--help"});
            QCOMPARE(r.code, 0);
            QVERIFY2(r.out.startsWith(QStringLiteral("usage: westphalia-cli %1").arg(cmd)),
                     qPrintable(r.out));
        }
        const Run r = cli({"--help"});
        QVERIFY(r.out.contains("play --scenario") && r.out.contains("fuzz") && r.out.contains("bench"));
    }

    void badCommandLines() {
        Run r = cli({"play"});
        QCOMPARE(r.code, 2);
        QVERIFY(r.err.contains("--scenario is required"));
        r = cli({"play", "--scenario", "napoleonic"});
        QCOMPARE(r.code, 2);
        QVERIFY(r.err.contains("neither a scenario") && r.err.contains("campaign"));
        r = cli({"play", "--scenario", "campaign", "--dice", "3,x"});
        QCOMPARE(r.code, 2);
        QVERIFY(r.err.contains("'x' is not a die"));
        r = cli({"play", "--scenario", "campaign", "--option", "19.99=on"});
        QCOMPARE(r.code, 2);
        QVERIFY(r.err.contains("unknown option"));
        r = cli({"fuzz", "--games", "0"});
        QCOMPARE(r.code, 2);
        r = cli({"play", "--scenario", "campaign", "--actions", "/nonexistent/x.actions"});
        QCOMPARE(r.code, 1);
        QVERIFY(r.err.contains("cannot read /nonexistent/x.actions"));
    }

    // The actions file: comments and blank lines are skipped, every action is applied and logged.
    void playAppliesActions() {
        const Run legal = cli({"play", "--scenario", "campaign", "--seed", "7", "--legal"});
        QCOMPARE(legal.code, 0);
        QVERIFY(legal.out.startsWith("# Protestant, turn 1, round 1 of 6"));
        const QStringList first = legalLines(legal.out);
        QVERIFY(!first.isEmpty());
        QTemporaryDir tmp;
        const QString file = tmp.filePath("game.actions");
        QVERIFY(writeFile(
            file, QStringLiteral("# a comment\n\n%1   # the Protestant's first round\n").arg(first[0])));
        const Run before = cli({"play", "--scenario", "campaign", "--seed", "7", "--log"});
        const Run r = cli({"play", "--scenario", "campaign", "--seed", "7", "--actions", file, "--log"});
        QCOMPARE(r.code, 0);
        QVERIFY2(r.err.isEmpty(), qPrintable(r.err));
        QVERIFY(r.out.startsWith(before.out)); // the set-up lines, then the action's lines
        QVERIFY(r.out.size() > before.out.size());
        QVERIFY(r.out.contains("Protestant round 1"));
        // the state moved on: it is the Catholic's decision now (or the Protestant's activation)
        const Run st =
            cli({"play", "--scenario", "campaign", "--seed", "7", "--actions", file, "--state-json"});
        QCOMPARE(st.code, 0);
        const QJsonObject o = json(st.out);
        QCOMPARE(o.value("scenario").toString(), QStringLiteral("campaign"));
        QCOMPARE(o.value("roundsUsed").toObject().value("protestant").toInt(), 1);
        QVERIFY(o.value("units").toArray().size() > 20);
        QVERIFY(o.contains("frame") && o.contains("prompt") && o.contains("hands") &&
                o.contains("drawPiles"));
        QCOMPARE(o.value("control").toObject().value("areas").toObject().size(), data()->areas.size());
    }

    // An illegal or malformed action stops with exit 1, naming the file, the line and the reason.
    void illegalActionNamesFileAndLine() {
        QTemporaryDir tmp;
        const QString file = tmp.filePath("bad.actions");
        QVERIFY(writeFile(file, "# nothing yet\n\nmove vienna\n"));
        Run r = cli({"play", "--scenario", "campaign", "--actions", file});
        QCOMPARE(r.code, 1);
        QVERIFY2(r.err.contains(file + ":3: illegal action 'move vienna'"), qPrintable(r.err));
        QVERIFY2(r.err.contains("is not a legal action now"), qPrintable(r.err)); // the engine's own text
        QVERIFY(writeFile(file, "frobnicate u1\n"));
        r = cli({"play", "--scenario", "campaign", "--actions", file});
        QCOMPARE(r.code, 1);
        QVERIFY2(r.err.contains(file + ":1: cannot read 'frobnicate u1': unknown action 'frobnicate'"),
                 qPrintable(r.err));
        // --check: the invariants after every action
        QVERIFY(
            writeFile(file, QStringLiteral("%1\n").arg(
                                legalLines(cli({"play", "--scenario", "campaign", "--legal"}).out).first())));
        r = cli({"play", "--scenario", "campaign", "--actions", file, "--check"});
        QVERIFY2(r.code == 0 && r.err.isEmpty(), qPrintable(r.err));
        QVERIFY(writeFile(file, "pass\ndice: 4,11\n"));
        r = cli({"play", "--scenario", "campaign", "--actions", file});
        QCOMPARE(r.code, 1);
    }

    // --dice and "dice:" lines go into GameState::forcedDice, in order.
    void scriptedDice() {
        QTemporaryDir tmp;
        const QString file = tmp.filePath("dice.actions");
        QVERIFY(writeFile(file, "dice: 7 8\n"));
        const Run r =
            cli({"play", "--scenario", "campaign", "--dice", "3,4", "--actions", file, "--state-json"});
        QCOMPARE(r.code, 0);
        QCOMPARE(json(r.out).value("dice").toArray(), (QJsonArray{3, 4, 7, 8}));
    }

    void breitenfeldPosition() {
        const Run r = cli({"play", "--scenario", fixture("breitenfeld.json"), "--legal", "--state-json"});
        QCOMPARE(r.code, 0);
        QVERIFY2(r.err.isEmpty(), qPrintable(r.err));
        QVERIFY(r.out.contains("\nplay P2 act gustavus-adolphus\n"));
        QVERIFY(!r.out.contains("act baner")); // 10.14: Gustavus always is the activated leader
        GameState s;
        QString error;
        Engine e(data());
        QVERIFY2(loadPosition(e, fixture("breitenfeld.json"), s, &error), qPrintable(error));
        const GameData& d = e.data();
        QCOMPARE(int(s.turn), 7);
        QCOMPARE(int(s.activeSide), kProtestant);
        QCOMPARE(unitsAt(s, d.city("torgau"), kProtestant, d).size(), size_t(7));
        QCOMPARE(unitsAt(s, d.city("leipzig"), kCatholic, d).size(), size_t(7));
        QCOMPARE(cfSum(d, s, unitsAt(s, d.city("leipzig"), kCatholic, d)), 18); // the example's 18 CF
        QCOMPARE(s.hand[kProtestant].size(), size_t(3));
        QCOMPARE(s.hand[kCatholic], (std::vector<int16_t>{static_cast<int16_t>(d.card("C49"))}));
        QCOMPARE(s.cardPlace[d.card("P34")], CardPlace::Hand); // an Intervention card, taken from Later
        QCOMPARE(s.forcedDice.size(), size_t(7));
        QCOMPARE(int(s.leaders[d.leader("tilly")].loc), d.city("leipzig"));
        QCOMPARE(s.leaders[d.leader("mansfeld")].status, LeaderStatus::NotEntered); // the board was cleared
        QVERIFY(checkInvariants(e, s).isEmpty());
        // the scenario's hand went back to the Unplayed pile: the 14 Early cards, less P2 and P13, wait there
        QCOMPARE(s.drawPile[kProtestant].size(), size_t(14 - 2));
    }

    void malformedPositions_data() {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("expected");
        QTest::newRow("json") << "{\"scenario\": \"campaign\",\n \"turn\": }"
                              << "line 2, column 11: malformed JSON";
        QTest::newRow("top") << "[1, 2]"
                             << "$: expected a JSON object";
        QTest::newRow("scenario") << "{\"scenario\": \"napoleonic\"}"
                                  << "$.scenario: unknown scenario 'napoleonic'";
        QTest::newRow("no scenario") << "{\"turn\": 3}"
                                     << "$.scenario: missing";
        QTest::newRow("field") << "{\"scenario\": \"campaign\", \"unit\": []}"
                               << "$: unknown field 'unit'";
        QTest::newRow("city")
            << R"({"scenario": "campaign", "units": [{"nationality": "swedish", "type": "veteran",
                                  "city": "torgua"}]})"
            << "$.units[0].city: unknown city 'torgua'";
        QTest::newRow("nationality") << R"({"scenario": "campaign", "units": [{"nationality": "polish",
                                         "type": "veteran", "city": "torgau"}]})"
                                     << "$.units[0].nationality: unknown nationality 'polish'";
        QTest::newRow("mix")
            << R"({"scenario": "campaign", "units": [{"nationality": "swedish", "type": "veteran",
                                 "count": 20, "city": "torgau"}]})"
            << "$.units[0]: 8.412 the counter mix has only";
        QTest::newRow("stacking") << R"({"scenario": "campaign", "units": [
                                      {"nationality": "swedish", "type": "veteran", "count": 5, "city": "torgau"},
                                      {"nationality": "protestant", "type": "mercenary", "count": 4, "city": "torgau"}]})"
                                  << "10.21/10.24 Protestant has 9 units at Torgau";
        QTest::newRow("steps")
            << R"({"scenario": "campaign", "units": [{"nationality": "swedish", "type": "veteran",
                                   "steps": 3, "city": "torgau"}]})"
            << "$.units[0].steps: 3 is out of range 1..2";
        QTest::newRow("inside")
            << R"({"scenario": "campaign", "units": [{"nationality": "swedish", "type": "veteran",
                                    "city": "torgau", "inside": true}]})"
            << "$.units[0].inside: Torgau is no Fortress";
        QTest::newRow("leader")
            << R"({"scenario": "campaign", "leaders": [{"id": "gustav", "city": "torgau"}]})"
            << "$.leaders[0].id: unknown leader 'gustav'";
        QTest::newRow("leader twice")
            << R"({"scenario": "campaign", "leaders": [{"id": "tilly", "city": "torgau"},
                                          {"id": "tilly", "city": "leipzig"}]})"
            << "$.leaders[1].id: leader tilly is listed twice";
        QTest::newRow("card") << R"({"scenario": "campaign", "hands": {"protestant": ["P99"]}})"
                              << "$.hands.protestant[0]: unknown card 'P99'";
        QTest::newRow("card side") << R"({"scenario": "campaign", "hands": {"protestant": ["C1"]}})"
                                   << "$.hands.protestant[0]: C1 is a catholic card";
        QTest::newRow("card twice")
            << R"({"scenario": "campaign", "hands": {"protestant": ["P1"]},
                                        "drawPiles": {"protestant": ["P1"]}})"
            << "$.drawPiles.protestant[0]: P1 is already placed at $.hands.protestant[0]";
        QTest::newRow("hand size") << R"({"scenario": "campaign", "hands": {"protestant":
                                       ["P1", "P2", "P3", "P4", "P6", "P7", "P8", "P9"]}})"
                                   << "$.hands.protestant: 6.C a hand holds at most 7 cards";
        QTest::newRow("phase")
            << R"({"scenario": "campaign", "phase": "combat"})"
            << "$.phase: phase 'combat': a position file describes the start of a card round";
        QTest::newRow("rounds") << R"({"scenario": "campaign", "activeSide": "catholic",
                                    "roundsUsed": {"catholic": 2, "protestant": 2}})"
                                << "$.roundsUsed: 6.D the Protestant plays first";
        QTest::newRow("side") << R"({"scenario": "campaign", "control": {"areas": {"bohemia": "swedish"}}})"
                              << "$.control.areas.bohemia: 'swedish' is not a side";
        QTest::newRow("siege")
            << R"({"scenario": "campaign", "sieges": [{"city": "leipzig", "side": "protestant"}]})"
            << "$.sieges[0]: 13.13 no protestant unit stands outside leipzig";
        // 3.12-3.13: markers may stay through an Area change (enemy Fortress Cities, cities the enemy's
        // troops occupied), so both sides may hold Bohemia's rating of 3; but with five Catholic markers the
        // Protestant holds only two cities: the Catholic would control Bohemia.
        QTest::newRow("control")
            << R"({"scenario": "campaign", "control": {"cities": {"leitmeritz": "catholic", "pilsen": "catholic",
                                     "kuttenberg": "catholic", "budweis": "catholic", "eger": "catholic"}}})"
            << "3.13 Catholic holds";
        QTest::newRow("mid-decision") << R"({"scenario": "campaign", "frame": {"kind": "combat"}})"
                                      << "$.frame: this state was written during a 'combat' decision";
    }

    void malformedPositions() {
        QFETCH(QString, text);
        QFETCH(QString, expected);
        QTemporaryDir tmp;
        const QString file = tmp.filePath("pos.json");
        QVERIFY(writeFile(file, text));
        const Run r = cli({"play", "--scenario", file});
        QCOMPARE(r.code, 1);
        QVERIFY2(r.err.contains(file + ": "), qPrintable(r.err));
        QVERIFY2(r.err.contains(expected), qPrintable(r.err));
    }

    // stateToJson() writes a position that loads back as the same state.
    void positionRoundTrip() {
        Engine e(data());
        for (const QString scenario : {"campaign", "early-war", "intervention", "apocalypse"}) {
            GameState s;
            QString error;
            QVERIFY(e.newGame(s, scenario, {}, 42, &error));
            // play on to the start of some later card round, at random
            Rng pick(99);
            for (int i = 0; i < 400 && !s.gameOver; ++i) {
                const auto legal = e.legalActions(s);
                e.apply(s, legal[static_cast<size_t>(pick.below(static_cast<int>(legal.size())))]);
                if (i > 150 && s.frames.size() == 1 &&
                    std::get<TurnFrame>(s.frames[0]).phase == Phase::Action)
                    break;
            }
            if (s.gameOver || s.frames.size() != 1)
                continue;
            GameState t;
            QVERIFY2(positionFromJson(e, stateToJson(e, s), "round-trip", t, &error), qPrintable(error));
            QCOMPARE(stateToJson(e, t), stateToJson(e, s));
            QStringList diff = stateDifferences(e.data(), s, t);
            diff.removeAll("rng"); // a position does not carry the generator's state
            diff.removeAll(
                "markers/flags"); // state added after position.cpp was written (see the JSON check)
            QVERIFY2(diff.isEmpty(), qPrintable(scenario + ": " + diff.join(", ")));
        }
        // a fresh game's position is the same state, generator included
        GameState s, t;
        QString error;
        QVERIFY(e.newGame(s, "campaign", {}, 5, &error));
        QJsonObject o = stateToJson(e, s);
        o.insert("seed", 5);
        QVERIFY2(positionFromJson(e, o, "fresh", t, &error), qPrintable(error));
        QVERIFY2(s == t, qPrintable(stateDifferences(e.data(), s, t).join(", ")));
    }

    // Each invariant is caught when broken.
    void invariantsCatchBrokenStates() {
        Engine e(data());
        const GameData& d = e.data();
        GameState base;
        QString error;
        QVERIFY(e.newGame(base, "campaign", {}, 1, &error));
        QCOMPARE(checkInvariants(e, base), QStringList());
        auto expect = [&](GameState s, const QString& fragment) {
            const QStringList broken = checkInvariants(d, s);
            QVERIFY2(broken.join("\n").contains(fragment),
                     qPrintable(QStringLiteral("expected '%1' in: %2").arg(fragment, broken.join(" | "))));
        };
        GameState s = base;
        const int torgau = d.city("torgau");
        int placed = 0;
        for (UnitState& u : s.units)
            if (u.loc == kPool && s.nationSide[d.unitTypes[u.type].nationality] == kProtestant &&
                placed < 9) {
                u.loc = static_cast<int16_t>(torgau);
                u.steps = 2;
                ++placed;
            }
        expect(s, "10.21/10.24 Protestant has 9 units at Torgau");
        s = base;
        s.units[0].steps = 0;
        expect(s, "12.32 u0");
        s = base;
        s.units.pop_back();
        expect(s, "8.412 counter mix");
        s = base;
        s.hand[kProtestant].push_back(s.hand[kProtestant].front());
        expect(s, "is in 2 places at once");
        s = base;
        s.cardPlace[s.hand[kCatholic].front()] = CardPlace::Played;
        expect(s, "but its place says played");
        s = base;
        s.vp = 95;
        expect(s, "5.1 VP 95");
        s = base;
        s.leaders[d.leader("tilly")].loc = kPool;
        expect(s, "leader tilly is in play but has no location");
        s = base;
        s.cities[d.city("leipzig")].siege = 1;
        s.cities[d.city("leipzig")].sieger = kProtestant;
        expect(s, "13.14 a Protestant Siege marker on leipzig");
        s = base;
        s.electorMajorityHolder = kProtestant;
        expect(s, "5.141 Catholic controls");
        s = base;
        for (int c : d.areas[d.area("bohemia")].cities)
            s.cities[c].marker = kCatholic;
        expect(s, "3.13 Catholic holds");
        s = base;
        ChoiceFrame empty; // a 10.22 choice with nothing to choose from
        empty.actor = kCatholic;
        empty.purpose = kChooseOverstack;
        s.frames.push_back(empty);
        expect(s, "no legal action");
    }

    // The same seed and actions give the same state: a random game played by the library, replayed from
    // its action texts through the CLI, ends in the library's final state, twice over.
    void replayDeterminism() {
        Engine e(data());
        RandomGameSpec spec;
        spec.scenario = "early-war";
        spec.seed = 12;
        spec.policy = RandomPolicy::Aggressive; // battles, sieges: many dice
        spec.checkInvariants = spec.checkNotation = spec.verifyReplay =
            false; // the engine's bugs are fuzz_smoke's
        spec.keepActions = true;
        GameState final;
        spec.onState = [&](const GameState& s) { final = s; };
        const RandomGameResult g = playRandomGame(e, spec);
        QVERIFY(g.actions > 50);
        QTemporaryDir tmp;
        const QString file = tmp.filePath("game.actions");
        QVERIFY(writeFile(file, "# early-war, seed 12\n" + g.actionTexts.join('\n') + '\n'));
        const QStringList args{"play", "--scenario", "early-war", "--seed",
                               "12",   "--actions",  file,        "--state-json"};
        const Run a = cli(args), b = cli(args);
        QVERIFY2(a.code == 0, qPrintable(a.err));
        QCOMPARE(a.out, b.out);
        QCOMPARE(json(a.out), stateToJson(e, final));
        // another seed with the same actions is another game (other shuffles and dice)
        const Run c =
            cli({"play", "--scenario", "early-war", "--seed", "13", "--actions", file, "--state-json"});
        QVERIFY(c.code != 0 || c.out != a.out);
    }

    // The fuzz command's report. (Whether the engine passes is fuzz_smoke's business: here a failure the
    // fuzzer finds is shown, and its report is checked for what a failure must say.)
    void fuzzAFewGames() {
        for (const char* policy : {"uniform", "aggressive"}) {
            QTemporaryDir tmp;
            const Run r = cli({"fuzz", "--games", "8", "--seed", "100", "--policy", policy, "--jobs", "2",
                               "--save-failures", tmp.path()});
            QVERIFY2(r.code == 0 || r.code == 1, qPrintable(r.err));
            QVERIFY(
                r.out.contains("fuzz: 8 games (apocalypse 2, campaign 2, early-war 2, intervention 2), seeds "
                               "100-107, policy " +
                               QString(policy)));
            QVERIFY(r.out.contains("actions: ") && r.out.contains("results: ") &&
                    r.out.contains("elapsed: "));
            const bool failed = !r.out.contains(", failed: 0\n");
            QCOMPARE(r.code, failed ? 1 : 0);
            QVERIFY(r.out.trimmed().endsWith(failed ? "FAILED" : "OK"));
            if (failed) {
                qWarning("the fuzzer found engine bugs:\n%s", qPrintable(r.out));
                QCOMPARE(r.out.count("\nFAIL "), r.out.count("  reproduce: westphalia-cli fuzz --games 1"));
                // each failure's actions replay up to the failing action, which --check reports
                for (const QString& f : QDir(tmp.path()).entryList({"fail-*.actions"})) {
                    const QString path = tmp.filePath(f);
                    const QStringList parts = f.chopped(8).split('-'); // fail-<scenario>-<seed>
                    const QString scenario = parts.mid(1, parts.size() - 2).join('-');
                    const Run q = cli({"play", "--scenario", scenario, "--seed", parts.last(), "--actions",
                                       path, "--check"});
                    QVERIFY2(q.code != 0, qPrintable(path));
                }
            }
        }
        // the library call under it reports what it played
        Engine e(data());
        RandomGameSpec spec;
        spec.scenario = "campaign";
        spec.seed = 3;
        spec.keepActions = true;
        spec.checkInvariants = false;
        const RandomGameResult g = playRandomGame(e, spec);
        QVERIFY2(g.ok || g.failure.startsWith("replay") || g.failure.startsWith("notation"),
                 qPrintable(g.failure));
        QCOMPARE(g.actionTexts.size(), g.actions);
        QVERIFY(!g.finished || !g.result.isEmpty());
    }
};

QTEST_GUILESS_MAIN(TestPlay)
#include "test_play.moc"
