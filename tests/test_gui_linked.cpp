// Linked battles in the window (issue 12, docs/linked-battles.md, docs/gui.md): a campaign game started as
// a player starts it (New Game, or New Game by E-mail) with battles on the table, played in the window up
// to a battle that goes to the table, and that battle carried back into the campaign — hotseat (the
// auto-resolve button, the defender's confirmation, 12.31 and 12.28 afterwards), against a computer seat
// (the referee enters or confirms the computer's side) and by e-mail between two windows (a real table's
// result entered in the form in one file, confirmed by the defender in the next). The moves leading to the
// battle are the fuzzer's aggressive random choices among the engine's legal actions, submitted through the
// window's controller; everything about the battle goes through the dialogs' buttons.
#include "battle/linked.h"
#include "battleexportdialog.h"
#include "battlereportdialog.h"
#include "combatdialog.h"
#include "gamecontroller.h"
#include "gui_fixture.h"
#include "mainwindow.h"
#include "pbempanel.h"
#include "replaybar.h"
#include "rules/invariants.h"
#include "rules_fixture.h"
#include "save/pbem.h"
#include "save/savefile.h"
#include "table_form_fixture.h"
#include "tableresultdialog.h"
#include "tactical/tercios.h"
#include "tactical/tvbd.h"
#include "tacticalsession.h"
#include "tacticalwindow.h"
#include "theme.h"

#include <QApplication>
#include <QComboBox>
#include <QDir>
#include <QLabel>
#include <QListWidget>
#include <QMessageBox>
#include <QPushButton>
#include <QSettings>
#include <QSpinBox>
#include <QStandardPaths>
#include <QTabWidget>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QtTest>

#include <optional>

using namespace wp;
using namespace wp::rules;
using guitest::settle;

namespace {

void press(QAbstractButton* b) {
    QVERIFY(b);
    QVERIFY(b->isEnabled());
    QTest::mouseClick(b, Qt::LeftButton);
    settle();
}

const CombatFrame* topCombat(const GameState& s) {
    return s.frames.empty() ? nullptr : std::get_if<CombatFrame>(&s.frames.back());
}

std::optional<Action> legalChoice(const GameController* gc, int16_t target) {
    for (const Action& a : gc->legal())
        if (a.kind == ActionKind::Choose && a.target == target && topCombat(gc->state()))
            return a;
    return std::nullopt;
}

// A linked-battle decision is up: the attacker's result or the defender's confirmation.
bool atTable(const GameController* gc) {
    return isTableResultDecision(gc->legal()) || legalChoice(gc, kBattleConfirm).has_value();
}

bool inCombat(const GameState& s) {
    for (const auto& f : s.frames)
        if (std::holds_alternative<CombatFrame>(f))
            return true;
    return false;
}

// A battle-seeking choice: each legal action tried on a copy of the state; the ones that reach a table
// decision come first, then the ones that begin or keep a battle (12.1: a move into the enemy, not a
// retreat before it), chosen at random among them; when none does, the aggressive random policy.
size_t seekBattle(const GameController* gc, Rng& rng) {
    const auto& legal = gc->legal();
    const Engine& engine = gc->game().engine();
    std::vector<size_t> best;
    int bestScore = 0;
    for (size_t i = 0; i < legal.size(); ++i) {
        GameState next = gc->state();
        if (!engine.applyListed(next, legal, i).ok)
            continue;
        const auto* f = topCombat(next);
        const int score = f && f->table > 0 && !f->tableResult ? 2 : inCombat(next) ? 1 : 0;
        if (score > bestScore)
            best.clear(), bestScore = score;
        if (score == bestScore && score > 0)
            best.push_back(i);
    }
    if (!best.empty())
        return best[rng.below(static_cast<int>(best.size()))];
    return chooseRandomAction(gc->data(), gc->state(), legal, RandomPolicy::Aggressive, rng);
}

// Plays `side`'s decisions in window `w` with the aggressive random policy (or `seeking` battles,
// seekBattle) until it is not that side's decision any more, a table decision is up, or the game ends.
// Returns the actions played.
int playRandomly(MainWindow& w, int side, Rng& rng, int limit = 400, bool seeking = false) {
    GameController* gc = w.controller();
    int n = 0;
    while (n < limit && gc->actor() == side && !gc->state().gameOver && !atTable(gc) &&
           !gc->legal().empty()) {
        const auto& legal = gc->legal();
        const Action a = legal[seeking ? seekBattle(gc, rng)
                                       : chooseRandomAction(gc->data(), gc->state(), legal,
                                                            RandomPolicy::Aggressive, rng)];
        QString error;
        if (!gc->submit(a, &error))
            qFatal("the window refused a legal action: %s", qPrintable(error));
        ++n;
    }
    settle();
    return n;
}

// After the confirmation: the decisions left in the battle (12.31 allocations, 12.54 retreats) until its
// frame is gone; `human` plays by the policy, the other side is a computer seat (or -1: both human).
void finishBattle(MainWindow& w, int computer, Rng& rng) {
    GameController* gc = w.controller();
    for (int i = 0; i < 400 && topCombat(gc->state()) && topCombat(gc->state())->tableResult; ++i) {
        if (gc->actor() == computer || gc->computerThinking())
            QTest::qWait(20);
        else
            playRandomly(w, gc->actor(), rng, 1);
    }
    QVERIFY(!topCombat(gc->state()) || !topCombat(gc->state())->tableResult);
}

// Shows the window at a size where every dock fits, and waits until it is on the (offscreen) screen.
void showWindow(MainWindow& w) {
    w.resize(1600, 1000);
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
}

// Shows the window and starts the campaign in it as New Game does: `battles` on the table, no cover
// screen between the players, the seats and seed of `setup`.
void startCampaign(MainWindow& w, NewGameSetup setup, const QString& battles) {
    showWindow(w);
    setup.coverHands = false;
    QString error;
    QVERIFY2(setOption(setup.options, QStringLiteral("battles=") + battles, &error), qPrintable(error));
    QVERIFY(w.startGame(setup));
}

// The same with the Protestant a computer seat (the priority bot), seed 2.
void startAgainstComputer(MainWindow& w, const QString& battles) {
    NewGameSetup setup;
    setup.seed = 2;
    setup.seats[kProtestant] = SeatKind::Computer;
    setup.computerBot = QStringLiteral("priority");
    startCampaign(w, setup, battles);
}

// New Game hotseat with `battles` and `seed` in window `w`, played at random (the aggressive policy, both
// sides) until the first table decision: whether the attacker's table result is the decision then.
bool playToTheTable(MainWindow& w, quint64 seed, const QString& battles, Rng& rng) {
    NewGameSetup setup;
    setup.seed = seed;
    startCampaign(w, setup, battles);
    GameController* gc = w.controller();
    for (int i = 0; i < 3000 && gc->hasGame() && !atTable(gc) && !gc->state().gameOver; ++i)
        playRandomly(w, gc->actor(), rng);
    return gc->hasGame() && isTableResultDecision(gc->legal());
}

// The campaign log has a line containing `text`.
bool logged(const GameController* gc, const QString& text) {
    for (const LogLine& l : gc->log())
        if (l.text.contains(text))
            return true;
    return false;
}

// The table battle fought on screen from the Tabletop result dialog: *Fight it on screen* opens it in the
// tactical window; the human sides' decisions are the simple policy's, played through the window
// (playPolicyMove), the computer sides' the window's own computer seats. Returns the window at the end.
TacticalWindow* fightToTheEnd(TableResultDialog* dlg, int computerTacticalSide) {
    dlg->tabs()->setCurrentIndex(3);
    press(dlg->fightButton());
    TacticalWindow* tw = dlg->tacticalWindow();
    if (!tw || !tw->session())
        return nullptr;
    tw->setComputerDelay(0);
    for (int t = 0; t < 2; ++t)
        if (tw->isComputerSide(t) != (t == computerTacticalSide))
            return nullptr;
    for (int i = 0; i < 20000 && !tw->session()->over(); ++i) {
        if (tw->isComputerSide(tw->session()->actor()))
            QCoreApplication::processEvents(); // the computer seat's queued move
        else if (!tw->playPolicyMove())
            return nullptr;
    }
    settle();
    return tw;
}

// A screenshot for docs/gui.md (the build's tests/gui-shots/, copied to the repository's gui-shots/).
QString shot(const QString& name) {
    QDir().mkpath(QStringLiteral("gui-shots"));
    return QDir(QStringLiteral("gui-shots")).absoluteFilePath(name);
}

// The battle report of window `w` (Battle ▸ Battle Report…): its row of the last table battle, or -1.
int lastTableRow(BattleReportDialog* report) {
    for (int r = static_cast<int>(report->battles().size()) - 1; r >= 0; --r)
        if (report->battles()[r].tableBattle > 0)
            return r;
    return -1;
}

} // namespace

class TestGuiLinked : public QObject {
    Q_OBJECT
    std::shared_ptr<const GameData> d;

    // After the confirmation the campaign goes on as after a CRT result: 12.31 with the Loss Numbers the
    // table gave, 12.28 with its winner (unless that force is eliminated), the leaders lost killed.
    void checkBackInTheCampaign(const GameController* gc, const CombatFrame& entered) {
        const int att = entered.attacker, def = 1 - att;
        const QString city = d->cities[entered.city].name;
        QVERIFY(logged(gc, QStringLiteral("12.31 %1 takes").arg(sideName(att))) ||
                entered.lossNumber[att] == 0);
        QVERIFY(logged(gc, QStringLiteral("of Loss Number %1").arg(entered.lossNumber[att])) ||
                entered.lossNumber[att] == 0);
        QVERIFY(logged(gc, QStringLiteral("of Loss Number %1").arg(entered.lossNumber[def])) ||
                entered.lossNumber[def] == 0);
        QVERIFY2(logged(gc, QStringLiteral("12.28 %1 wins the battle at %2")
                                .arg(sideName(entered.tableWinner), city)) ||
                     logged(gc, QStringLiteral("wins the battle at %1").arg(city)),
                 qPrintable(city));
        for (int16_t l : entered.tableLeadersLost)
            QCOMPARE(gc->state().leaders[l].status, LeaderStatus::Dead);
    }

  private slots:
    void initTestCase() {
        QStandardPaths::setTestModeEnabled(true);
        QCoreApplication::setOrganizationName(QStringLiteral("WestphaliaTest"));
        QCoreApplication::setApplicationName(QStringLiteral("test_gui_linked"));
        QSettings().clear();
        qApp->setStyle(QStringLiteral("Fusion"));
        qApp->setStyleSheet(theme::styleSheet());
        d = rules::test::rulesData();
    }

    // Hotseat, Tercios: the campaign from New Game with battles=tercios; the first battle stops at the
    // table; the dialog's auto-resolve gives the model's autoResolveTop; submitted, the defender confirms
    // in the combat dialog, which says it is the auto-resolved battle; then 12.31 and 12.28 follow.
    void hotseatTercios() {
        MainWindow w(d);
        QString error;
        GameController* gc = w.controller();
        Rng rng(4);
        QVERIFY2(playToTheTable(w, 4, QStringLiteral("tercios"), rng), qPrintable(gc->game().prompt()));
        const CombatFrame* f = topCombat(gc->state());
        QVERIFY(f);
        QCOMPARE(f->table, int8_t(kBattlesTercios));
        QVERIFY(logged(gc, QStringLiteral("goes to the table (")));
        TableResultDialog* dlg = w.tableResultDialog();
        QVERIFY2(dlg->isVisible(), "the dialog opens at the table decision");
        battle::LinkedResult expected;
        QVERIFY2(battle::autoResolveTop(*d, gc->state(), &expected, &error), qPrintable(error));
        press(dlg->autoButton());
        QVERIFY(dlg->pending());
        QCOMPARE(dlg->pending()->actions(*d), expected.actions(*d));
        press(dlg->submitButton());
        QVERIFY(!dlg->isVisible());
        // The defender's confirmation, in the combat dialog.
        const int attacker = f->attacker;
        QCOMPARE(gc->actor(), 1 - attacker);
        CombatDialog* combat = w.combatDialog();
        QVERIFY(combat->isVisible());
        QVERIFY(combat->tableCheckLabel());
        // the auto-resolved result goes with its record (by: auto), replayed by the defender's check
        QVERIFY(!battle::enteredAttachment(gc->actionTexts()).isEmpty());
        QVERIFY2(combat->tableCheckLabel()->text().contains(QStringLiteral(
                     "Verified: the battle's record gives this result</b> — the auto-resolved battle")),
                 qPrintable(combat->tableCheckLabel()->text()));
        const CombatFrame entered = *topCombat(gc->state());
        press(combat->buttonFor(*legalChoice(gc, kBattleConfirm)));
        QVERIFY(logged(gc, QStringLiteral("(linked battle) %1 confirms").arg(sideName(1 - attacker))));
        // The losses (each side's 12.31 allocation) and the retreat: the players' decisions, by the policy.
        finishBattle(w, -1, rng);
        checkBackInTheCampaign(gc, entered);
        // The battle report lists it as a table battle with the result entered.
        QList<battle::BattleRecord> battles;
        GameState start;
        QVERIFY(
            gc->game().engine().newGame(start, QStringLiteral("campaign"), gc->game().options(), 4, &error));
        QVERIFY2(battle::battleReport(gc->game().engine(), start, gc->game().actions(), &battles, &error),
                 qPrintable(error));
        QVERIFY(!battles.isEmpty());
        QCOMPARE(battles.back().resolution, QStringLiteral("table: Tercios"));
        QCOMPARE(battles.back().tableResult, expected.actions(*d).join(QStringLiteral("; ")));
    }

    // A computer seat (the priority bot plays the Protestant): at a table battle the window's computer seat
    // asks the referee (ai::tableDecision), which enters the auto-resolved result when the computer attacks
    // and confirms when it defends; the human's side goes through the dialogs.
    void computerSeat() {
        MainWindow w(d);
        startAgainstComputer(w, QStringLiteral("tvbd"));
        GameController* gc = w.controller();
        Rng rng(2);
        int confirmed = 0;
        for (int i = 0; i < 4000 && confirmed < 1 && !gc->state().gameOver; ++i) {
            if (gc->actor() == kProtestant || gc->computerThinking()) {
                QTRY_VERIFY_WITH_TIMEOUT(gc->actor() != kProtestant || gc->state().gameOver, 20000);
                continue;
            }
            if (isTableResultDecision(gc->legal())) { // the human attacks: the dialog, auto-resolved
                TableResultDialog* dlg = w.tableResultDialog();
                QVERIFY(dlg->isVisible());
                press(dlg->autoButton());
                QVERIFY(dlg->pending());
                // the result as it goes in (the computer may confirm and the battle end during the press)
                CombatFrame entered = *topCombat(gc->state());
                QCOMPARE(entered.attacker, int8_t(kCatholic));
                const battle::LinkedResult res = *dlg->pending();
                entered.lossNumber[kCatholic] = static_cast<int8_t>(res.lossNumber[0]);
                entered.lossNumber[kProtestant] = static_cast<int8_t>(res.lossNumber[1]);
                entered.tableWinner = res.attackerWins ? kCatholic : kProtestant;
                entered.tableLeadersLost.assign(res.leadersLost.begin(), res.leadersLost.end());
                press(dlg->submitButton());
                // the computer defender confirms (the referee); the battle goes on into the campaign
                QTRY_VERIFY_WITH_TIMEOUT(logged(gc, QStringLiteral("(linked battle) Protestant confirms")),
                                         20000);
                finishBattle(w, kProtestant, rng);
                checkBackInTheCampaign(gc, entered);
                ++confirmed;
                continue;
            }
            if (const auto confirm = legalChoice(gc, kBattleConfirm)) { // the computer attacked
                const CombatFrame* f = topCombat(gc->state());
                QCOMPARE(f->attacker, int8_t(kProtestant));
                QVERIFY(f->tableWinner != kNone);
                CombatDialog* combat = w.combatDialog();
                QVERIFY(combat->isVisible());
                QVERIFY(combat->tableCheckLabel());
                // the referee's result goes with its record (by: auto), replayed by the check
                QVERIFY2(
                    combat->tableCheckLabel()->text().contains(QStringLiteral(
                        "Verified: the battle's record gives this result</b> — the auto-resolved battle")),
                    qPrintable(combat->tableCheckLabel()->text()));
                const CombatFrame entered = *f;
                press(combat->buttonFor(*confirm));
                QVERIFY(logged(gc, QStringLiteral("(linked battle) Catholic confirms")));
                finishBattle(w, kProtestant, rng);
                checkBackInTheCampaign(gc, entered);
                ++confirmed;
                continue;
            }
            playRandomly(w, kCatholic, rng);
        }
        QVERIFY2(confirmed >= 1, qPrintable(gc->game().prompt()));
    }

    // Hotseat, TVBD, fought on screen: *Fight it on screen* opens the battle (battle export of this
    // position, its battle seed) in the tactical window with both sides human; played to its end there, the
    // end state becomes the result shown in the dialog (tableResultFromTvbd mapped by the default mapping),
    // submitted like the auto-resolved one; the defender confirms; 12.31, 12.28 and 12.4 follow.
    void hotseatOnScreenTvbd() {
        MainWindow w(d);
        GameController* gc = w.controller();
        Rng rng(2);
        QVERIFY2(playToTheTable(w, 2, QStringLiteral("tvbd"), rng), qPrintable(gc->game().prompt()));
        const int attacker = topCombat(gc->state())->attacker;
        TableResultDialog* dlg = w.tableResultDialog();
        QVERIFY(dlg->isVisible());
        QVERIFY(!dlg->pending());
        TacticalWindow* tw = fightToTheEnd(dlg, -1);
        QVERIFY(tw);
        QCOMPARE(tw->session()->ruleset(), QStringLiteral("tvbd"));
        QCOMPARE(tw->session()->seed(), battle::linkedBattleSeed(gc->state()));
        QVERIFY(tw->session()->over());
        QVERIFY(tw->session()->actionTexts().size() > 10); // fought move by move, not one auto-resolve
        // The dialog has the end state's result, as the model maps it.
        QVERIFY2(dlg->pending(), qPrintable(dlg->resultLabel()->text()));
        QVERIFY(dlg->resultLabel()->text().contains(QStringLiteral("fought on screen")));
        battle::LinkedResult expected;
        QString error;
        // the Commanders who fell on the table, and the battle's 12.41 roll for the others
        battle::TableResult table = battle::tableResultFromTvbd(*d, gc->state(), *tw->session()->tvbdState());
        QVERIFY(table.winner >= 0);
        const battle::LinkMapping mapping = battle::defaultMapping(QStringLiteral("tvbd"));
        battle::rollTableLeaderLosses(*d, gc->state(), battle::linkedBattleSeed(gc->state()), &table,
                                      mapping.leaderModifier);
        QVERIFY2(battle::mapResult(*d, gc->state(), table, mapping, &expected, &error), qPrintable(error));
        QCOMPARE(dlg->pending()->actions(*d), expected.actions(*d));
        // the battle's record goes with the result: every move of the battle fought here
        QVERIFY(!dlg->pendingAttachment().isEmpty());
        battle::TableRecord record;
        QVERIFY2(battle::decodeRecord(dlg->pendingAttachment(), &record, &error), qPrintable(error));
        QCOMPARE(record.by, QStringLiteral("screen"));
        QCOMPARE(record.moves.size(), tw->session()->actionTexts().size());
        QCOMPARE(record.seed, battle::linkedBattleSeed(gc->state()));
        QCOMPARE(record.battleData, battle::battleDataHash(QStringLiteral("tvbd"))); // made with these data
        const QString endText = tw->session()->resultText();
        press(dlg->submitButton());
        QVERIFY(!dlg->isVisible());
        QCOMPARE(gc->actor(), 1 - attacker);
        CombatDialog* combat = w.combatDialog();
        QVERIFY(combat->isVisible());
        // the defender's check replays the record (the same end, the same result)
        QVERIFY2(
            combat->tableCheckLabel()->text().contains(QStringLiteral("Verified: the battle's record gives "
                                                                      "this result")),
            qPrintable(combat->tableCheckLabel()->text()));
        QVERIFY(combat->tableCheckLabel()->text().contains(
            QStringLiteral("%1 tactical actions replayed").arg(record.moves.size())));
        QVERIFY(combat->grab().save(shot(QStringLiteral("table-result-confirm-verified.png"))));
        const CombatFrame entered = *topCombat(gc->state());
        QCOMPARE(entered.tableWinner, int8_t(expected.attackerWins ? attacker : 1 - attacker));
        QCOMPARE(int(entered.lossNumber[attacker]), expected.lossNumber[0]);
        QCOMPARE(int(entered.lossNumber[1 - attacker]), expected.lossNumber[1]);
        press(combat->buttonFor(*legalChoice(gc, kBattleConfirm)));
        QVERIFY(logged(gc, QStringLiteral("(linked battle) %1 confirms").arg(sideName(1 - attacker))));
        finishBattle(w, -1, rng);
        checkBackInTheCampaign(gc, entered);
        // Ending the battle again (a second battleOver) no longer applies: the table decision is gone.
        QVERIFY(!dlg->takeBattleEnd());

        // History: saved and opened in another window, the battle report lists the battle with its record
        // replayed, and opens the battle again in the tactical window — the same battle, to the same end.
        QTemporaryDir tmp;
        const QString file = tmp.filePath(QStringLiteral("screen.tyw"));
        QVERIFY2(gc->save(file, &error), qPrintable(error));
        MainWindow again(d);
        showWindow(again);
        QVERIFY2(again.controller()->load(file, &error), qPrintable(error));
        BattleReportDialog* report = again.showBattleReport();
        QVERIFY(report->isVisible());
        const int row = lastTableRow(report);
        QVERIFY(row >= 0);
        const battle::BattleRecord& b = report->battles()[row];
        QCOMPARE(b.evidence, QStringLiteral("screen"));
        QCOMPARE(b.recordOk, 1);
        QVERIFY(report->table()
                    ->item(row, BattleReportDialog::Record)
                    ->text()
                    .contains(QStringLiteral(
                                  "fought on screen: its record replays to the result (%1 tactical actions)")
                                  .arg(record.moves.size())));
        QVERIFY(report->summaryLabel()->text().contains(QStringLiteral("1 fought on screen")));
        report->table()->selectRow(row);
        QVERIFY(report->openButton()->isEnabled());
        QVERIFY(report->grab().save(shot(QStringLiteral("battle-report.png"))));
        TacticalWindow* replayed = report->openBattle(row, &error);
        QVERIFY2(replayed, qPrintable(error));
        QVERIFY(replayed->session()->over());
        QCOMPARE(replayed->session()->actionTexts(), tw->session()->actionTexts());
        QCOMPARE(replayed->session()->resultText(), endText);
        QTemporaryDir logs;
        QVERIFY2(report->saveLog(row, logs.filePath("battle.txt"), &error), qPrintable(error));
        QVERIFY2(report->saveScenario(row, logs.filePath("battle.json"), &error), qPrintable(error));
        QFile logFile(logs.filePath("battle.txt"));
        QVERIFY(logFile.open(QIODevice::ReadOnly));
        QCOMPARE(QString::fromUtf8(logFile.readAll()).trimmed().split(QLatin1Char('\n')),
                 tw->session()->log());
        replayed->close();
    }

    // An auto-resolved TVBD battle in a game's history opens again from the battle report: fought again by
    // the tactical AI its record names when that is this version's (the same end), shown as exported with
    // the window's note when the record names another revision of the AI (docs/linked-battles.md).
    void autoResolvedRecordOfAnotherAi() {
        MainWindow w(d);
        GameController* gc = w.controller();
        Rng rng(2);
        QString error;
        QVERIFY2(playToTheTable(w, 2, QStringLiteral("tvbd"), rng), qPrintable(gc->game().prompt()));
        TableResultDialog* dlg = w.tableResultDialog();
        QVERIFY(dlg->isVisible());
        battle::LinkedResult expected;
        QStringList autoLog; // the tactical battle's own log
        QVERIFY2(battle::autoResolveLinked(
                     *d, gc->state(), QStringLiteral("tvbd"), battle::linkedBattleSeed(gc->state()),
                     battle::defaultMapping(QStringLiteral("tvbd")), &expected, nullptr, &error, &autoLog),
                 qPrintable(error));
        press(dlg->autoButton());
        QVERIFY(dlg->pending());
        QCOMPARE(dlg->pending()->actions(*d), expected.actions(*d));
        press(dlg->submitButton());
        press(w.combatDialog()->buttonFor(*legalChoice(gc, kBattleConfirm)));
        finishBattle(w, -1, rng);
        QTemporaryDir tmp;
        const QString file = tmp.filePath(QStringLiteral("auto.tyw"));
        QVERIFY2(gc->save(file, &error), qPrintable(error));

        // the record as saved: auto-resolved by this version's tactical AI
        std::optional<save::SaveGame> sg = save::readFile(file, &error);
        QVERIFY2(sg, qPrintable(error));
        qsizetype at = -1;
        battle::TableRecord record;
        for (qsizetype i = 0; i < sg->actions.size() && at < 0; ++i) {
            QString attachment;
            splitAttachment(sg->actions[i], &attachment);
            if (!attachment.isEmpty() && battle::decodeRecord(attachment, &record, &error))
                at = i;
        }
        QVERIFY(at >= 0);
        QCOMPARE(record.by, QStringLiteral("auto"));
        QVERIFY(record.usesTacticalAi());
        QCOMPARE(record.tacticalAi, tactical::kTacticalAiRevision);

        // Opens the saved game in a new window and the battle from its report.
        auto openFromReport = [&](const QString& path, MainWindow& win, QString* rowText) -> TacticalWindow* {
            showWindow(win);
            if (!win.controller()->load(path, &error))
                return nullptr;
            BattleReportDialog* report = win.showBattleReport();
            const int row = lastTableRow(report);
            if (row < 0)
                return nullptr;
            *rowText = report->table()->item(row, BattleReportDialog::Record)->text();
            TacticalWindow* tw = report->openBattle(row, &error);
            report->hide();
            return tw;
        };
        {
            MainWindow same(d);
            QString rowText;
            TacticalWindow* tw = openFromReport(file, same, &rowText);
            QVERIFY2(tw, qPrintable(error));
            QVERIFY(tw->session()->over()); // fought again by the same AI, to its end
            QVERIFY(tw->session()->openNote().isEmpty());
            QVERIFY(record.moves.isEmpty()); // an auto-resolved battle's record: its seed and policy
            QVERIFY(autoLog.size() > 20);
            QCOMPARE(tw->session()->log(), autoLog);
            tw->close();
        }

        // The same record naming an older revision of the AI (a game of an earlier version).
        QVERIFY(tactical::kTacticalAiRevision > 1);
        battle::TableRecord older = record;
        older.tacticalAi = tactical::kTacticalAiRevision - 1;
        QString attachment;
        const QString notation = splitAttachment(sg->actions[at], &attachment);
        sg->actions[at] = notation + QStringLiteral(" @") + battle::encodeRecord(older);
        const QString olderFile = tmp.filePath(QStringLiteral("older.tyw"));
        QVERIFY2(save::writeFile(olderFile, *sg, &error), qPrintable(error));
        MainWindow other(d);
        QString rowText;
        TacticalWindow* tw = openFromReport(olderFile, other, &rowText);
        QVERIFY2(tw, qPrintable(error));
        // the report says why the record is not checked here; the window shows the battle as exported
        QVERIFY2(rowText.contains(QStringLiteral("revision %1 of the tactical AI").arg(older.tacticalAi)),
                 qPrintable(rowText));
        QVERIFY(!tw->session()->over());
        QVERIFY(tw->session()->actionTexts().isEmpty());
        const QString note = tw->session()->openNote();
        QVERIFY2(note.contains(QStringLiteral("revision %1 of the tactical AI").arg(older.tacticalAi)) &&
                     note.contains(QStringLiteral("shown as exported")),
                 qPrintable(note));
        tw->close();
    }

    // Closing the tactical window before the battle ends brings nothing back (nothing is submitted, the
    // dialog says so) but keeps the unfinished battle: Resume takes it up where it was left, with the same
    // moves and the same seed, and played to its end it is submitted with its record as any other.
    void closeEarlyKeepsTheBattle() {
        MainWindow w(d);
        GameController* gc = w.controller();
        Rng rng(4);
        QVERIFY2(playToTheTable(w, 4, QStringLiteral("tercios"), rng), qPrintable(gc->game().prompt()));
        const int attacker = topCombat(gc->state())->attacker;
        TableResultDialog* dlg = w.tableResultDialog();
        QVERIFY(dlg->isVisible());
        QVERIFY(!dlg->resumeButton()->isVisible());
        dlg->tabs()->setCurrentIndex(3);
        // closed early, then discarded: forgotten
        press(dlg->fightButton());
        TacticalWindow* tw = dlg->tacticalWindow();
        QVERIFY(tw && tw->session());
        QVERIFY(tw->playPolicyMove());
        tw->close();
        settle();
        QVERIFY(dlg->resumeButton()->isVisible());
        press(dlg->discardButton());
        QVERIFY(dlg->unfinishedFile().isEmpty());
        QVERIFY(!dlg->resumeButton()->isVisible());
        // closed early again after six moves: kept
        press(dlg->fightButton());
        tw = dlg->tacticalWindow();
        QVERIFY(tw && tw->session());
        QVERIFY(tw->session()->actionTexts().isEmpty()); // a new fight starts from the beginning
        for (int i = 0; i < 6; ++i)
            QVERIFY(tw->playPolicyMove());
        const QStringList played = tw->session()->actionTexts();
        QVERIFY(!tw->session()->over());
        tw->close();
        settle();
        QVERIFY(!dlg->tacticalWindow());
        QVERIFY(dlg->isVisible());
        QVERIFY(!dlg->pending());
        QVERIFY2(dlg->resultLabel()->text().contains(QStringLiteral("Nothing was submitted")),
                 qPrintable(dlg->resultLabel()->text()));
        QVERIFY(dlg->resumeButton()->isVisible() && dlg->discardButton()->isVisible());
        QVERIFY(!dlg->unfinishedFile().isEmpty());
        QVERIFY(isTableResultDecision(gc->legal())); // the campaign still waits for the result
        QVERIFY(dlg->grab().save(shot(QStringLiteral("table-result-unfinished.png"))));
        // the dialog closed and opened again (as after a restart): the offer is still there
        dlg->hide();
        QVERIFY(dlg->refresh());
        QVERIFY(!dlg->unfinishedFile().isEmpty());
        press(dlg->resumeButton());
        tw = dlg->tacticalWindow();
        QVERIFY(tw && tw->session());
        QCOMPARE(tw->session()->actionTexts(), played);
        QCOMPARE(tw->session()->seed(), battle::linkedBattleSeed(gc->state()));
        tw->setComputerDelay(0);
        for (int i = 0; i < 20000 && !tw->session()->over(); ++i)
            QVERIFY(tw->playPolicyMove());
        settle();
        QVERIFY2(dlg->pending(), qPrintable(dlg->resultLabel()->text()));
        QVERIFY(!dlg->pendingAttachment().isEmpty());
        QVERIFY(dlg->unfinishedFile().isEmpty()); // fought to the end: no longer kept
        press(dlg->submitButton());
        QCOMPARE(gc->actor(), 1 - attacker);
        QVERIFY2(w.combatDialog()->tableCheckLabel()->text().contains(QStringLiteral("Verified")),
                 qPrintable(w.combatDialog()->tableCheckLabel()->text()));
        tw->close();
    }

    // A computer seat, Tercios, fought on screen: the Protestant is the computer; at the first table battle
    // the human Catholic attacks in, he fights it on screen against the window's computer seat for the
    // Protestant side (the tactical simple policy, by itself); the result comes back, with the leaders lost
    // by the battle's 12.41 rolls (no Commanders on a Tercios table), and the computer defender confirms.
    void computerSeatOnScreenTercios() {
        MainWindow w(d);
        startAgainstComputer(w, QStringLiteral("tercios"));
        GameController* gc = w.controller();
        Rng rng(2);
        bool fought = false;
        for (int i = 0; i < 4000 && !fought && !gc->state().gameOver; ++i) {
            if (gc->actor() == kProtestant || gc->computerThinking()) {
                QTRY_VERIFY_WITH_TIMEOUT(gc->actor() != kProtestant || gc->state().gameOver, 20000);
                continue;
            }
            if (const auto confirm = legalChoice(gc, kBattleConfirm)) { // the computer attacked: confirm
                press(w.combatDialog()->buttonFor(*confirm));
                finishBattle(w, kProtestant, rng);
                continue;
            }
            if (!isTableResultDecision(gc->legal())) {
                playRandomly(w, kCatholic, rng);
                continue;
            }
            TableResultDialog* dlg = w.tableResultDialog();
            QVERIFY(dlg->isVisible());
            TacticalWindow* tw = fightToTheEnd(dlg, 1); // the export's side 1: the computer defender
            QVERIFY(tw);
            QCOMPARE(tw->session()->ruleset(), QStringLiteral("tercios"));
            QVERIFY(tw->session()->over());
            QVERIFY2(dlg->pending(), qPrintable(dlg->resultLabel()->text()));
            battle::TableResult table = battle::tableResultFromTercios(*tw->session()->terciosState());
            const battle::LinkMapping mapping = battle::defaultMapping(QStringLiteral("tercios"));
            battle::rollTableLeaderLosses(*d, gc->state(), battle::linkedBattleSeed(gc->state()), &table,
                                          mapping.leaderModifier);
            battle::LinkedResult expected;
            QString error;
            QVERIFY2(battle::mapResult(*d, gc->state(), table, mapping, &expected, &error),
                     qPrintable(error));
            QCOMPARE(dlg->pending()->actions(*d), expected.actions(*d));
            CombatFrame entered = *topCombat(gc->state());
            QCOMPARE(entered.attacker, int8_t(kCatholic));
            entered.lossNumber[kCatholic] = static_cast<int8_t>(expected.lossNumber[0]);
            entered.lossNumber[kProtestant] = static_cast<int8_t>(expected.lossNumber[1]);
            entered.tableWinner = expected.attackerWins ? kCatholic : kProtestant;
            entered.tableLeadersLost.assign(expected.leadersLost.begin(), expected.leadersLost.end());
            press(dlg->submitButton());
            QTRY_VERIFY_WITH_TIMEOUT(logged(gc, QStringLiteral("(linked battle) Protestant confirms")),
                                     20000);
            finishBattle(w, kProtestant, rng);
            checkBackInTheCampaign(gc, entered);
            fought = true;
        }
        QVERIFY2(fought, qPrintable(gc->game().prompt()));
    }

    // By e-mail between two windows: the option agreed in the start exchange, the moves exchanged in
    // turn files until a battle goes to the table; the attacker enters a real table's result in the form
    // and sends it; the defender's window checks it against the auto-resolved battle, he confirms in his
    // next file, and the attacker's copy replays and verifies the confirmation. Every run is the same game:
    // the PBEM secrets come from a fixed test seed (save::setTestSecretsSeed), the moves from a fixed Rng;
    // they seek a battle (seekBattle), which the game reaches in its first turns.
    void pbemTwoWindows() { pbemGame(false); }

    // The same in Tercios with the battle fought on screen by the attacker against the tactical window's
    // computer seat for the absent defender: the result goes with the battle's record, which the defender's
    // copy replays when it imports the file; his dialog says it is verified; he confirms; his battle report
    // lists the battle with its record replayed.
    void pbemOnScreen() { pbemGame(true); }

  private:
    void pbemGame(bool onScreen) {
        // the secrets from a fixed test seed (docs/pbem.md "Tests"): the same game every run
        const save::TestSecretsScope secrets(onScreen ? 2027 : 2026);
        QTemporaryDir tmp;
        QVERIFY(tmp.isValid());
        auto path = [&](const QString& n) { return tmp.filePath(n); };
        MainWindow host(d), guest(d);
        showWindow(host);
        showWindow(guest);
        QVERIFY(host.newPbemGame(QStringLiteral("campaign"), kCatholic, save::DiceMode::Open, path("host"),
                                 path("start.pbem"),
                                 {QStringLiteral("battles=%1").arg(onScreen ? "tercios" : "tvbd")}));
        QVERIFY(guest.joinPbemGame(path("start.pbem"), path("guest"), path("join.pbem")));
        TurnImport r = host.importTurnFile(path("join.pbem"));
        QVERIFY2(r.ok, qPrintable(r.error));
        QCOMPARE(host.controller()->state().options.battles,
                 int8_t(onScreen ? kBattlesTercios : kBattlesTvbd));
        MainWindow* win[2] = {&host, &guest}; // by side: the host plays the Catholic
        Rng rng(11);
        int files = 0;
        auto send = [&](int from) {
            MainWindow& a = *win[from];
            MainWindow& b = *win[1 - from];
            QVERIFY(a.controller()->pbemMustExport());
            // A sealed last action is not resolved in the author's copy (docs/pbem.md): the receiver's copy
            // rolls it and is one action ahead until the author imports the answer
            const bool sealedLast = a.controller()->pbem()->lastActionSealed();
            const QString name =
                path(QStringLiteral("f%1-").arg(++files) + a.controller()->pbem()->nextFileName());
            QVERIFY(a.exportTurnTo(name));
            const TurnImport in = b.importTurnFile(name);
            QVERIFY2(in.ok, qPrintable(in.error));
            if (b.replayBar()->isVisible() && b.inPast())
                press(b.replayBar()->presentButton());
            QVERIFY2(sealedLast || save::publicDigest(a.controller()->state()) ==
                                       save::publicDigest(b.controller()->state()),
                     qPrintable(QStringLiteral("file %1 from the %2: %3")
                                    .arg(files)
                                    .arg(sideName(from), a.controller()->game().prompt())));
            for (auto* box : b.findChildren<QMessageBox*>())
                box->close();
        };
        auto mover = [&]() -> int {
            for (int side : {0, 1})
                if (win[side]->controller()->pbem()->myBall())
                    return side;
            return -1;
        };
        // Up to the first battle that goes to the table.
        for (int guard = 0; guard < 600; ++guard) {
            const int side = mover();
            QVERIFY(side >= 0);
            GameController* gc = win[side]->controller();
            if (gc->state().gameOver || isTableResultDecision(gc->legal()))
                break;
            playRandomly(*win[side], side, rng, 400, true); // battle-seeking: every game reaches one
            if (gc->pbemMustExport())
                send(side);
            if (QTest::currentTestFailed())
                return;
        }
        const int att = mover();
        QVERIFY(att >= 0);
        MainWindow& aw = *win[att];
        MainWindow& dw = *win[1 - att];
        QVERIFY2(isTableResultDecision(aw.controller()->legal()),
                 qPrintable(aw.controller()->game().prompt()));
        const CombatFrame battle = *topCombat(aw.controller()->state());
        {
            // Issue 9 (battle export): a PBEM game's battles are in its past battles (this side's
            // step-through states), and this one exports.
            const auto past = aw.pastBattles();
            QVERIFY(!past.empty());
            QVERIFY2(past.back().label.contains(d->cities[battle.city].name), qPrintable(past.back().label));
            BattleExportDialog* ex = aw.exportPastBattle(past.back());
            QVERIFY2(ex->error().isEmpty(), qPrintable(ex->error()));
            ex->hide();
        }
        TableResultDialog* dlg = aw.tableResultDialog();
        QVERIFY(dlg->isVisible());
        if (onScreen) {
            // The attacker fights it on screen; the absent defender's side (1) is the computer seat.
            TacticalWindow* tw = fightToTheEnd(dlg, 1);
            QVERIFY(tw);
            QVERIFY(tw->session()->over());
            QVERIFY2(dlg->pending(), qPrintable(dlg->resultLabel()->text()));
            QVERIFY(!dlg->pendingAttachment().isEmpty());
            press(dlg->submitButton());
            QVERIFY(aw.controller()->pbemMustExport());
            send(att);
            GameController* dgc = dw.controller();
            const std::optional<Action> confirm = legalChoice(dgc, kBattleConfirm);
            QVERIFY(confirm);
            CombatDialog* combat = dw.combatDialog();
            QVERIFY(combat->isVisible());
            QVERIFY2(combat->tableCheckLabel()->text().contains(
                         QStringLiteral("Verified: the battle's record gives this result")),
                     qPrintable(combat->tableCheckLabel()->text()));
            const CombatFrame enteredFrame = *topCombat(dgc->state());
            press(combat->buttonFor(*confirm));
            QVERIFY(logged(dgc, QStringLiteral("(linked battle) %1 confirms").arg(sideName(1 - att))));
            tw->close();
            // the defender's battle report (his copy's history) lists it, its record replayed
            BattleReportDialog* report = dw.showBattleReport();
            const int row = lastTableRow(report);
            QVERIFY(row >= 0);
            QCOMPARE(report->battles()[row].recordOk, 1);
            QCOMPARE(report->battles()[row].evidence, QStringLiteral("screen"));
            report->hide();
            finishPbemBattle(win, mover, send, rng, enteredFrame, att);
            return;
        }
        // The attacker's window: the form of a real table (the defender holds the field; one leader lost).
        dlg->tabs()->setCurrentIndex(1);
        dlg->winnerBox()->setCurrentIndex(1);
        bool filled = false;
        const QList<battle::TableUnit> units = guitest::enterSampleForm(
            dlg, topCombat(aw.controller()->state())->table == kBattlesTvbd, &filled);
        QVERIFY(filled);
        QListWidget* leaders = dlg->leadersList();
        QVERIFY(leaders->count() >= 1);
        leaders->item(0)->setCheckState(Qt::Checked);
        const QString lostId = leaders->item(0)->data(Qt::UserRole).toString();
        press(dlg->mapButton());
        QVERIFY2(dlg->pending(), qPrintable(dlg->resultLabel()->text()));
        const QStringList entered = dlg->pending()->actions(*d);
        QCOMPARE(entered.front().section(QLatin1Char(' '), 0, 1), QStringLiteral("battle-result defender"));
        QVERIFY(entered.contains(QStringLiteral("battle-leader ") + lostId));
        press(dlg->submitButton());
        QVERIFY(aw.controller()->pbemMustExport()); // the confirmation is the defender's, in his next file
        QVERIFY(!legalChoice(aw.controller(), kBattleConfirm));
        send(att);
        // The defender's window: the result as entered, checked against the auto-resolved battle.
        GameController* dgc = dw.controller();
        const std::optional<Action> confirm = legalChoice(dgc, kBattleConfirm);
        QVERIFY(confirm);
        QCOMPARE(topCombat(dgc->state())->tableWinner, int8_t(1 - att));
        CombatDialog* combat = dw.combatDialog();
        QVERIFY(combat->isVisible());
        QVERIFY(combat->tableCheckLabel());
        // the form came with the result (checked on import): the defender sees it unit by unit, verified
        const QString check = combat->tableCheckLabel()->text();
        QVERIFY2(check.contains(QStringLiteral("The form entered gives this result")), qPrintable(check));
        for (const battle::TableUnit& u : units)
            QVERIFY2(check.contains(u.name.toHtmlEscaped()), qPrintable(u.name));
        QVERIFY(!battle::enteredAttachment(dgc->pbem()->allActions()).isEmpty());
        const CombatFrame enteredFrame = *topCombat(dgc->state());
        press(combat->buttonFor(*confirm));
        QVERIFY(logged(dgc, QStringLiteral("(linked battle) %1 confirms").arg(sideName(1 - att))));
        finishPbemBattle(win, mover, send, rng, enteredFrame, att);
        QCOMPARE(aw.controller()->state().leaders[d->leader(lostId)].status, LeaderStatus::Dead);
    }

    // The battle ends over the next files (each side's 12.31 allocation, the retreat); the attacker's copy
    // replays the confirmation and agrees.
    template <class Mover, class Send>
    void finishPbemBattle(MainWindow* const* win, Mover mover, Send send, Rng& rng,
                          const CombatFrame& enteredFrame, int att) {
        bool done = false;
        for (int guard = 0; guard < 200 && !done; ++guard) {
            const int side = mover();
            QVERIFY(side >= 0);
            playRandomly(*win[side], side, rng, 1);
            if (win[side]->controller()->pbemMustExport()) {
                send(side);
                const CombatFrame* f = topCombat(win[1 - side]->controller()->state());
                done = !f || !f->tableResult;
            }
        }
        QVERIFY(done);
        GameController* agc = win[att]->controller();
        QVERIFY(logged(agc, QStringLiteral("(linked battle) %1 confirms").arg(sideName(1 - att))));
        QVERIFY(agc->pbem()->allActions().contains(QStringLiteral("battle confirm")));
        checkBackInTheCampaign(agc, enteredFrame);
    }
};

QTEST_MAIN(TestGuiLinked)
#include "test_gui_linked.moc"
