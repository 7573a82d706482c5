// The TVBD tactical AI's quick level (TacticalLevel::Quick, Policy::Quick; docs/tvbd.md "The quick level"):
// it plays whole battles with only legal actions on every scenario, the full level is what Policy::Tactical
// plays, and the CLI's --policy reads "quick" (alone and per side) while --odds keeps the full AI by default.
#include "tactical/tactical_game.h"
#include "tactical/tvbd.h"
#include "tactical/tvbd_ai.h"
#include "tvbd_fixture.h"

#include <QProcess>
#include <QTest>

#include <optional>

using namespace wp::tactical;

namespace {

const QString kBattles = QStringLiteral(WESTPHALIA_SOURCE_DIR "/scenarios/battles/");
const QStringList kScenarios{QStringLiteral("tvbd-breitenfeld.json"),
                             QStringLiteral("tvbd-white-mountain.json"), QStringLiteral("tvbd-cards.json"),
                             QStringLiteral("tvbd-pickup.json"), QStringLiteral("tvbd-recruit.json")};

struct Cli {
    int code = -1;
    QString out, err;
};

Cli runCli(const QStringList& args) {
    QProcess p;
    p.start(QStringLiteral(WESTPHALIA_CLI), args);
    Cli r;
    if (!p.waitForFinished(120000))
        return r;
    r.code = p.exitCode();
    r.out = QString::fromUtf8(p.readAllStandardOutput());
    r.err = QString::fromUtf8(p.readAllStandardError());
    return r;
}

} // namespace

class TestTvbdQuick : public QObject {
    Q_OBJECT
    const TvbdRules* rules = nullptr;
    // The battle scenario `name` (scenarios/battles/); nullopt (and a warning) when it does not load.
    std::optional<BattleState> scenario(const QString& name) const {
        BattleState start;
        QString error;
        if (!loadScenario(kBattles + name, *rules, &start, &error)) {
            qWarning("%s", qPrintable(error));
            return std::nullopt;
        }
        return start;
    }

  private slots:
    void initTestCase();
    void quickPlaysWholeBattlesWithLegalActions();
    void quickAgainstTheFullLevel();
    void fullLevelIsTheTacticalPolicy();
    void cliPolicyQuick();
};

void TestTvbdQuick::initTestCase() {
    QString error;
    rules = defaultTvbdRules(&error);
    QVERIFY2(rules, qPrintable(error));
    QCOMPARE(policyFromName(QStringLiteral("quick")), std::optional<Policy>(Policy::Quick));
    QCOMPARE(policyName(Policy::Quick), QStringLiteral("quick"));
}

// A short fuzz on the five battle scenarios: random play for a while (from the set-up), then the quick level
// as both sides to the end of the battle, every choice one of the engine's legal actions.
void TestTvbdQuick::quickPlaysWholeBattlesWithLegalActions() {
    TvbdEngine e(*rules);
    QString error;
    for (const QString& name : kScenarios) {
        const std::optional<BattleState> start = scenario(name);
        QVERIFY(start);
        for (quint64 seed = 1; seed <= 2; ++seed) {
            TacticalGame g(e, *start, seed);
            wp::rules::Rng rng(seed);
            const int randomActions = int(seed * 53 % 120);
            for (int k = 0; k < randomActions && !g.state().over(); ++k)
                QVERIFY(g.apply(choosePolicyAction(e, g.state(), Policy::Random, rng), &error));
            int checked = 0;
            for (int k = 0; k < 5000 && !g.state().over(); ++k) {
                const TAction a = choosePolicyAction(e, g.state(), Policy::Quick, rng);
                QVERIFY2(isLegal(e, g.state(), a),
                         qPrintable(name + QStringLiteral(": ") + actionText(g.state(), a)));
                QVERIFY2(g.apply(a, &error), qPrintable(name + QStringLiteral(": ") + error));
                ++checked;
            }
            QVERIFY2(g.state().over(), qPrintable(name + QStringLiteral(": not over")));
            QVERIFY(checked > 50);
            QVERIFY(g.state().winner >= 0 && g.state().winner <= 2);
        }
    }
}

// The quick level against the full one, each side both ways: the battle ends (a winner or a draw).
void TestTvbdQuick::quickAgainstTheFullLevel() {
    TvbdEngine e(*rules);
    const std::optional<BattleState> start = scenario(kScenarios[0]);
    QVERIFY(start);
    QString error;
    for (const std::array<Policy, 2>& pol :
         {std::array{Policy::Quick, Policy::Tactical}, std::array{Policy::Tactical, Policy::Quick}}) {
        const AutoResult r = resolveTvbd(e, *start, 3, pol);
        QVERIFY2(r.winner >= 0, qPrintable(r.reason));
        QVERIFY(r.turns >= 1);
    }
}

// Policy::Tactical is the full level, chooseTacticalAction's default, at every decision of a battle (the
// full AI's, Breitenfeld); the quick level chooses otherwise at some of them (the defender's budget, the
// charges' estimates) and the same at most.
void TestTvbdQuick::fullLevelIsTheTacticalPolicy() {
    TvbdEngine e(*rules);
    const std::optional<BattleState> start = scenario(kScenarios[0]);
    QVERIFY(start);
    QString error;
    TacticalGame g(e, *start, 1);
    wp::rules::Rng rng(1);
    int same = 0, differ = 0;
    for (int k = 0; k < 2000 && !g.state().over(); ++k) {
        const TAction a = choosePolicyAction(e, g.state(), Policy::Tactical, rng);
        wp::rules::Rng r1(1), r2(1);
        QCOMPARE(actionText(g.state(), chooseTacticalAction(e, g.state(), r1)), actionText(g.state(), a));
        QCOMPARE(actionText(g.state(), chooseTacticalAction(e, g.state(), r2, TacticalLevel::Full)),
                 actionText(g.state(), a));
        const TAction q = choosePolicyAction(e, g.state(), Policy::Quick, rng);
        (actionText(g.state(), a) == actionText(g.state(), q) ? same : differ)++;
        QVERIFY2(g.apply(a, &error), qPrintable(error));
    }
    QVERIFY(g.state().over());
    QVERIFY2(differ > 0, "the quick level chose as the full one everywhere");
    QVERIFY2(same > differ, qPrintable(QStringLiteral("%1 same, %2 differ").arg(same).arg(differ)));
}

// --policy quick, quick/tactical and tactical/quick (battle run and tactical tvbd); the default of --odds is
// the full AI; a wrong name is refused with the list of names.
void TestTvbdQuick::cliPolicyQuick() {
    const QString file = kBattles + kScenarios[0];
    struct Case {
        QStringList extra;
        QString policies;
    };
    for (const Case& c :
         {Case{{}, QStringLiteral("tactical / tactical")},
          Case{{QStringLiteral("--policy"), QStringLiteral("quick")}, QStringLiteral("quick / quick")},
          Case{{QStringLiteral("--policy"), QStringLiteral("quick/tactical")},
               QStringLiteral("quick / tactical")},
          Case{{QStringLiteral("--policy"), QStringLiteral("tactical/quick")},
               QStringLiteral("tactical / quick")}}) {
        const Cli r =
            runCli(QStringList{QStringLiteral("battle"), QStringLiteral("run"), file,
                               QStringLiteral("--rules"), QStringLiteral("tvbd"), QStringLiteral("--odds"),
                               QStringLiteral("2"), QStringLiteral("--jobs"), QStringLiteral("1")} +
                   c.extra);
        QVERIFY2(r.code == 0, qPrintable(r.err));
        QVERIFY2(r.out.contains(QStringLiteral("policy: ") + c.policies), qPrintable(r.out));
        QVERIFY2(r.out.contains(QStringLiteral("battles: 2")), qPrintable(r.out));
    }
    // one battle with --auto under the quick level, through `tactical tvbd`
    const Cli one =
        runCli({QStringLiteral("tactical"), QStringLiteral("tvbd"), QStringLiteral("--scenario"), file,
                QStringLiteral("--auto"), QStringLiteral("--policy"), QStringLiteral("quick")});
    QVERIFY2(one.code == 0, qPrintable(one.err));
    QVERIFY2(one.out.contains(QStringLiteral("policy: quick / quick")), qPrintable(one.out));
    QVERIFY2(one.out.contains(QStringLiteral("result: ")), qPrintable(one.out));
    // a name that is not a policy: refused, the names listed
    const Cli bad = runCli({QStringLiteral("battle"), QStringLiteral("run"), file, QStringLiteral("--rules"),
                            QStringLiteral("tvbd"), QStringLiteral("--odds"), QStringLiteral("2"),
                            QStringLiteral("--policy"), QStringLiteral("fast")});
    QCOMPARE(bad.code, 2);
    QVERIFY2(bad.err.contains(QStringLiteral("quick")), qPrintable(bad.err));
    // Tercios has no quick level (the tactical AI plays TVBD only)
    const Cli tercios =
        runCli({QStringLiteral("tactical"), QStringLiteral("tercios"), QStringLiteral("--scenario"),
                QStringLiteral(WESTPHALIA_SOURCE_DIR "/scenarios/battles/tercios-breitenfeld.json"),
                QStringLiteral("--auto"), QStringLiteral("--policy"), QStringLiteral("quick")});
    QCOMPARE(tercios.code, 2);
    QVERIFY2(tercios.err.contains(QStringLiteral("TVBD only")), qPrintable(tercios.err));
}

QTEST_GUILESS_MAIN(TestTvbdQuick)
#include "test_tvbd_quick.moc"
