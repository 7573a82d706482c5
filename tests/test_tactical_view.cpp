// The tactical view and assist mode (issues 10-11), offscreen: a TVBD and a Tercios battle opened in the
// window and played by driving its widgets (clicks on the table, the action list, Apply, Undo, the typed
// entry, the hand-dice box and dialog, auto-resolve), with the drawn content checked against the state.
#include "data/datadir.h"
#include "data/loader.h"
#include "rules/action.h"
#include "rules/engine.h"
#include "save/savefile.h"
#include "tactical/tactical_game.h"
#include "tactical/tercios.h"
#include "tactical/tvbd_ai.h"
#include "tacticalsession.h"
#include "tacticalview.h"
#include "tacticalwindow.h"
#include "theme.h"

#include <QApplication>
#include <QCheckBox>
#include <QComboBox>
#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QLineEdit>

#include <QListWidget>
#include <QProcess>
#include <QPushButton>
#include <QRegularExpression>
#include <QSpinBox>
#include <QStatusBar>
#include <QTemporaryDir>
#include <QTimer>
#include <QtTest>
#include <functional>
#include <random>

using namespace wp;

namespace {

const QString kSource = QStringLiteral(WESTPHALIA_SOURCE_DIR);

// A shipped TVBD scenario (scenarios/battles/*tvbd*.json); the engine's own fixture until one is shipped.
QString tvbdScenario() {
    const QStringList shipped = QDir(kSource + QStringLiteral("/scenarios/battles"))
                                    .entryList({QStringLiteral("*tvbd*.json")}, QDir::Files, QDir::Name);
    for (const QString& f : shipped)
        if (f.contains(QLatin1String("white")))
            return kSource + QStringLiteral("/scenarios/battles/") + f;
    if (!shipped.isEmpty())
        return kSource + QStringLiteral("/scenarios/battles/") + shipped.front();
    return QStringLiteral(WESTPHALIA_TEST_DIR "/fixtures/tactical/tvbd-white-mountain.json");
}

// A record's tactical AI moves up to the first one (index k), whose text is replaced by another legal
// action (what an older AI might have chosen), written with the revision `revision` (0: no field).
QString recordWithAiMove(const QJsonObject& root, qsizetype k, const QString& path, int revision,
                         bool altered) {
    QJsonArray actions = root.value(QStringLiteral("actions")).toArray();
    while (actions.size() > k + 1)
        actions.removeLast();
    QString given;
    if (altered) {
        QString error;
        auto before = TacticalSession::open(
            tvbdScenario(), root.value(QStringLiteral("seed")).toString().toULongLong(), &error);
        QList<battle::TableMove> moves;
        for (qsizetype i = 0; i < k; ++i) {
            const QJsonObject a = actions[i].toObject();
            moves << battle::TableMove{a.value(QStringLiteral("action")).toString(),
                                       {},
                                       a.contains(QStringLiteral("policy")) ? QStringLiteral("tactical")
                                                                            : QString()};
        }
        if (!before || !before->replayMoves(moves, &error))
            return {};
        const QString chosen = actions[k].toObject().value(QStringLiteral("action")).toString();
        for (const TacActionView& v : before->legalActions())
            if (v.text != chosen && given.isEmpty())
                given = v.text;
        QJsonObject a = actions[k].toObject();
        a.insert(QStringLiteral("action"), given);
        actions[k] = a;
    }
    QJsonObject out = root;
    out.insert(QStringLiteral("actions"), actions);
    out.remove(QStringLiteral("tacticalAi"));
    if (revision)
        out.insert(QStringLiteral("tacticalAi"), revision);
    QFile f(path);
    if (!f.open(QIODevice::WriteOnly))
        return {};
    f.write(QJsonDocument(out).toJson());
    return altered ? given : actions[k].toObject().value(QStringLiteral("action")).toString();
}

// The record names the tactical AI's revision; a record of another revision (or of none: written before
// the field) keeps its computer moves as played, as given moves, and says so; one of this revision whose
// computer move is not this AI's choice is refused.
void aiRevisionOfARecord(const QJsonObject& root, qsizetype k, const QString& path) {
    const int ours = tactical::kTacticalAiRevision;
    QString error;
    // this revision, the AI's own move: chosen again, kept as the AI's
    QString text = recordWithAiMove(root, k, path, ours, false);
    auto s = TacticalSession::openRecord(path, &error);
    QVERIFY2(s, qPrintable(error));
    QCOMPARE(s->moves().last().text, text);
    QCOMPARE(s->moves().last().policy, QStringLiteral("tactical"));
    QVERIFY(s->openNote().isEmpty());
    // this revision, another move: refused
    text = recordWithAiMove(root, k, path, ours, true);
    QVERIFY(!text.isEmpty());
    QVERIFY(!TacticalSession::openRecord(path, &error));
    QVERIFY2(error.contains(QStringLiteral("the policy's move here is")), qPrintable(error));
    // another revision, another move: kept as played
    QVERIFY(!recordWithAiMove(root, k, path, ours + 1, true).isEmpty());
    s = TacticalSession::openRecord(path, &error);
    QVERIFY2(s, qPrintable(error));
    QCOMPARE(s->moves().last().text, text);
    QVERIFY(s->moves().last().policy.isEmpty());
    QVERIFY2(s->openNote().contains(QStringLiteral("revision %1 of the tactical AI").arg(ours + 1)),
             qPrintable(s->openNote()));
    // no revision (a record written before the field): this AI's choices where they agree ...
    recordWithAiMove(root, k, path, 0, false);
    s = TacticalSession::openRecord(path, &error);
    QVERIFY2(s, qPrintable(error));
    QCOMPARE(s->moves().last().policy, QStringLiteral("tactical"));
    QVERIFY(s->openNote().isEmpty());
    // ... and kept as played where they do not
    recordWithAiMove(root, k, path, 0, true);
    s = TacticalSession::openRecord(path, &error);
    QVERIFY2(s, qPrintable(error));
    QCOMPARE(s->moves().last().text, text);
    QVERIFY(s->moves().last().policy.isEmpty());
    QVERIFY2(s->openNote().contains(QStringLiteral("an older revision")), qPrintable(s->openNote()));
    // a revision that is not one
    QJsonObject bad = root;
    bad.insert(QStringLiteral("tacticalAi"), QStringLiteral("two"));
    QFile f(path);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write(QJsonDocument(bad).toJson());
    f.close();
    QVERIFY(!TacticalSession::openRecord(path, &error));
    QVERIFY2(error.contains(QStringLiteral("\"tacticalAi\": expected the tactical AI's revision")),
             qPrintable(error));
}

// Saves the window to $WESTPHALIA_SHOTS/NAME when that is set (screenshots for gui-shots/).
void shot(QWidget* w, const QString& name) {
    const QString dir = qEnvironmentVariable("WESTPHALIA_SHOTS");
    if (dir.isEmpty())
        return;
    QCoreApplication::processEvents();
    QVERIFY(w->grab().save(dir + QLatin1Char('/') + name, "PNG"));
}

int rowOf(QListWidget* list, const QString& text) {
    for (int i = 0; i < list->count(); ++i)
        if (list->item(i)->data(Qt::UserRole).toString() == text)
            return i;
    return -1;
}

// Answers every hand-dice dialog while it lives: fills the boxes with `value` and accepts; counts the dice
// asked for.
class DiceAnswerer : public QObject {
  public:
    explicit DiceAnswerer(int value) : m_value(value) {
        m_timer.setInterval(20);
        connect(&m_timer, &QTimer::timeout, this, [this]() {
            auto* dlg = qobject_cast<TacticalDiceDialog*>(QApplication::activeModalWidget());
            if (!dlg || !dlg->isVisible())
                return;
            asked += int(dlg->boxes().size());
            ++dialogs;
            for (QSpinBox* b : dlg->boxes())
                b->setValue(m_value);
            dlg->accept();
        });
        m_timer.start();
    }
    int asked = 0, dialogs = 0;

  private:
    int m_value;
    QTimer m_timer;
};

// Hidden orders (Tercios L319, L366): nothing the window shows tells `viewer` a card of the other side that
// is still face down — the unit labels read "order ?", and neither the result box, the action list nor the
// log names it.
void checkSecretsHidden(const TacticalWindow& w, int viewer) {
    using namespace wp::tactical;
    const TerciosState& st = *w.session()->terciosState();
    const TerciosState seen = viewFor(st, viewer);
    const QList<TacUnitView> shown = w.session()->units();
    const QStringList log = w.session()->log();
    qsizetype turnStart = 0; // this turn's cards were assigned after its planning line
    for (qsizetype l = 0; l < log.size(); ++l)
        if (log[l].contains(QLatin1String(": planning, each side assigns")))
            turnStart = l;
    for (qsizetype i = 0; i < st.units.size(); ++i) {
        if (seen.units[i].card != wp::tactical::Card::Hidden)
            continue;
        const QString id = st.units[i].id, card = cardName(st.units[i].card);
        QVERIFY2(shown[i].markers.contains(QStringLiteral("order ?")), qPrintable(id));
        QVERIFY2(!shown[i].tooltip.contains(card.left(1).toUpper() + card.mid(1) + QLatin1Char('!')),
                 qPrintable(id));
        const QString secret = QStringLiteral("order %1 %2").arg(id, card);
        QVERIFY2(!w.resultLabel()->text().contains(secret), qPrintable(w.resultLabel()->text()));
        for (int r = 0; r < w.actionList()->count(); ++r)
            QVERIFY2(!w.actionList()->item(r)->text().contains(secret), qPrintable(secret));
        for (qsizetype l = turnStart; l < log.size(); ++l)
            QVERIFY2(!log[l].contains(id + QStringLiteral(": ") + card + QLatin1Char('!')) &&
                         !log[l].contains(id + QStringLiteral(" reacts with ")),
                     qPrintable(log[l]));
    }
}

const wp::tactical::TerciosEngine& tengine() {
    static const wp::tactical::TerciosEngine e(*wp::tactical::defaultTerciosRules());
    return e;
}

// The simple policy's next action for the side to act (what the tests' players choose).
QString policyText(const TacticalSession* s, wp::rules::Rng& rng) {
    const wp::tactical::TerciosState& st = *s->terciosState();
    return wp::tactical::actionText(st, wp::tactical::chooseTerciosAction(tengine(), st, false, rng));
}

// Plays `text` as a player does: selects its unit on the table (or all units), picks the action in the list
// and presses Apply. False when the list does not offer it.
bool playFromList(TacticalWindow& w, const QString& text) {
    int unit = -1;
    for (const TacActionView& a : w.session()->legalActions())
        if (a.text == text)
            unit = a.unit;
    w.selectUnit(unit);
    const int row = rowOf(w.actionList(), text);
    if (row < 0)
        return false;
    w.actionList()->setCurrentRow(row);
    QTest::mouseClick(w.applyButton(), Qt::LeftButton);
    return true;
}

// A shipped scenario (scenarios/battles/NAME) opened in the window with a seed, shown at that size.
bool showScenario(TacticalWindow& w, const char* name, quint64 seed, QSize size) {
    QString error;
    if (!w.openFile(kSource + QStringLiteral("/scenarios/battles/") + QLatin1String(name), seed, &error)) {
        qWarning("%s", qPrintable(error));
        return false;
    }
    w.resize(size);
    w.show();
    return QTest::qWaitForWindowExposed(&w);
}

// The shipped Tercios example (12 points a side) opened in the window with a seed, shown at that size.
bool showExample(TacticalWindow& w, quint64 seed, QSize size) {
    return showScenario(w, "tercios-example.json", seed, size);
}

int offTable(const TacticalSession* s) {
    int n = 0;
    for (const TacUnitView& u : s->units())
        n += u.onTable ? 0 : 1;
    return n;
}

// Every row of the list shown whole at the list's width: no row wider than the viewport, and its text
// (wrapped at the words) within the row's height. The number of rows that wrap onto more lines goes to
// *wrapped.
void checkListFits(QListWidget* list, int* wrapped) {
    const QFontMetrics fm(list->font());
    for (int r = 0; r < list->count(); ++r) {
        const QListWidgetItem* it = list->item(r);
        const QRect rect = list->visualItemRect(it);
        QVERIFY2(rect.width() <= list->viewport()->width(), qPrintable(it->text()));
        // the notation in brackets is kept on one line (its spaces do not break)
        QString text = it->text();
        const qsizetype at = text.lastIndexOf(QLatin1String("   ["));
        if (at >= 0)
            text = text.left(at + 4) + text.mid(at + 4).replace(QLatin1Char(' '), QChar(QChar::Nbsp));
        const QRect need = fm.boundingRect(QRect(0, 0, rect.width() - 8, 10000), Qt::TextWordWrap, text);
        QVERIFY2(need.height() <= rect.height() && need.width() <= rect.width(),
                 qPrintable(QStringLiteral("%1: %2x%3 in %4x%5")
                                .arg(it->text())
                                .arg(need.width())
                                .arg(need.height())
                                .arg(rect.width())
                                .arg(rect.height())));
        *wrapped += need.height() > fm.lineSpacing() + 2 ? 1 : 0;
    }
}

// Every legal action of the session listed in words first, then its notation in brackets, the format of the
// TVBD moves ("LH1 wheels 20° left, then 2.3 TUM forward   [move LH1 wheel 20 2.3]"): the label ends with
// "   [notation]" and does not begin with the notation's verb. The verbs seen go to *verbs.
void checkListInWords(const TacticalSession* s, QSet<QString>* verbs) {
    for (const TacActionView& a : s->legalActions()) {
        const QString verb = a.text.section(QLatin1Char(' '), 0, 0);
        QVERIFY2(a.label.endsWith(QStringLiteral("   [%1]").arg(a.text)), qPrintable(a.label));
        const QString words = a.label.left(a.label.size() - a.text.size() - 5);
        QVERIFY2(!words.isEmpty() && !words.startsWith(verb, Qt::CaseInsensitive) &&
                     (!a.text.contains(QLatin1Char(' ')) || !words.contains(a.text)),
                 qPrintable(a.label));
        verbs->insert(verb);
    }
}

// The label of the listed action `text` ("" when it is not listed).
QString labelOf(const TacticalSession* s, const QString& text) {
    for (const TacActionView& a : s->legalActions())
        if (a.text == text)
            return a.label;
    return {};
}

// A shipped scenario (scenarios/battles/NAME) copied into `dir` with its sides named `side0` and `side1`,
// and changed by `edit`; the copy's path.
QString renamedScenario(const QTemporaryDir& dir, const char* name, const char* side0, const char* side1,
                        const std::function<void(QJsonObject&)>& edit = {}) {
    QFile in(kSource + QStringLiteral("/scenarios/battles/") + QLatin1String(name));
    if (!in.open(QIODevice::ReadOnly))
        return {};
    QJsonObject root = QJsonDocument::fromJson(in.readAll()).object();
    QJsonArray sides = root.value(QStringLiteral("sides")).toArray();
    for (int i = 0; i < 2 && i < sides.size(); ++i) {
        QJsonObject side = sides[i].toObject();
        side.insert(QStringLiteral("name"), QLatin1String(i == 0 ? side0 : side1));
        sides[i] = side;
    }
    root.insert(QStringLiteral("sides"), sides);
    if (edit)
        edit(root);
    const QString path = dir.filePath(QLatin1String(name));
    QFile out(path);
    if (!out.open(QIODevice::WriteOnly))
        return {};
    out.write(QJsonDocument(root).toJson());
    return path;
}

} // namespace

class TestTacticalView : public QObject {
    Q_OBJECT
  private slots:
    void initTestCase() {
        qApp->setStyle(QStringLiteral("Fusion"));
        qApp->setStyleSheet(theme::styleSheet());
    }
    void badFiles();
    void tvbdOnScreen();
    void tvbdDragsAgreeWithTheEngine();
    void tvbdAssistDice();
    void terciosOnScreen();
    void terciosHotseatCover();
    void setupDecisionsOnScreen();
    void tvbdEverySetupStepOnScreen();
    void tvbdSecretOrderOfBattleOnScreen();
    void tvbdTerrainGhostsOnScreen();
    void terciosSecretsInHotseat();
    void terciosComputerSeatKeepsItsCards();
    void tvbdComputerOpponent();
    void terciosExportedBattleThreeWays();
    void terciosListInWords();
    void setupListInWords();
    void bendCardInWords();
    void tvbdTerrainChangeInWords();
    void tvbdScoutingInWords();
};

// Bad input: a clear message naming the file and the problem, never a crash.
void TestTacticalView::badFiles() {
    QTemporaryDir dir;
    QString error;
    QVERIFY(!TacticalSession::open(dir.filePath(QStringLiteral("missing.json")), 1, &error));
    QVERIFY2(error.contains(QLatin1String("missing.json")), qPrintable(error));
    const QString notJson = dir.filePath(QStringLiteral("broken.json"));
    QFile f(notJson);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write("{\"format\": \"westphalia-tercios-scenario\", ");
    f.close();
    error.clear();
    QVERIFY(!TacticalSession::open(notJson, 1, &error));
    QVERIFY2(error.contains(QLatin1String("broken.json")), qPrintable(error));
    const QString other = dir.filePath(QStringLiteral("other.json"));
    QFile g(other);
    QVERIFY(g.open(QIODevice::WriteOnly));
    g.write("{\"format\": \"something-else\"}");
    g.close();
    error.clear();
    QVERIFY(!TacticalSession::open(other, 1, &error));
    QVERIFY2(error.contains(QLatin1String("other.json")) && error.contains(QLatin1String("format")),
             qPrintable(error));
    TacticalWindow w;
    QVERIFY(!w.openFile(other, 1, &error));
    QVERIFY(w.session() == nullptr);
}

// TVBD on screen: units drawn, a unit clicked shows its legal actions on the table, a listed move through
// the list and Apply, undo, a move measured on the table typed in, a refused one, auto-resolve; routed
// units drawn as routed; the log carries the rule numbers.
void TestTacticalView::tvbdOnScreen() {
    TacticalWindow w;
    QString error;
    QVERIFY2(w.openFile(tvbdScenario(), 7, &error), qPrintable(error));
    w.resize(1400, 900);
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    TacticalSession* s = w.session();
    QCOMPARE(s->ruleset(), QStringLiteral("tvbd"));
    QCOMPARE(w.view()->unitItemCount(), int(s->units().size()));
    QVERIFY(w.view()->unitItemCount() > 4);
    QVERIFY(w.promptLabel()->text().contains(s->sideName(s->actor()).toHtmlEscaped()));

    // Pass the bombardment (if any) to the first movement step, through the list and Apply.
    for (int guard = 0; guard < 10 && !s->prompt().contains(QLatin1String("move units")); ++guard) {
        const int row = rowOf(w.actionList(), QStringLiteral("end"));
        QVERIFY(row >= 0);
        w.actionList()->setCurrentRow(row);
        QTest::mouseClick(w.applyButton(), Qt::LeftButton);
    }
    QVERIFY2(s->prompt().contains(QLatin1String("move units")), qPrintable(s->prompt()));
    { // the end of the step in words, the verb in the number of the side's name
        const QString side = s->sideName(s->actor());
        const bool plural = side.endsWith(QLatin1Char('s')) || side.contains(QLatin1String(" and "));
        QString end;
        for (const TacActionView& a : s->legalActions())
            if (a.text == QLatin1String("end"))
                end = a.label;
        QCOMPARE(end, plural ? side + QStringLiteral(" end their movement   [end]")
                             : side + QStringLiteral(" ends its movement   [end]"));
    }

    // A unit with a straight move: click it on the table.
    int unit = -1;
    QString fwd;
    for (const TacActionView& a : s->legalActions())
        if (a.kind == TacActionView::Move && a.end && a.text.contains(QLatin1String(" fwd "))) {
            unit = a.unit;
            fwd = a.text;
            break;
        }
    QVERIFY(unit >= 0);
    QTest::mouseClick(w.view()->viewport(), Qt::LeftButton, {}, w.view()->viewPointOfUnit(unit));
    QCOMPARE(w.selected(), unit);
    QVERIFY(w.view()->highlightCount() > 0);
    const QString id = s->units()[unit].id;
    for (int i = 0; i < w.actionList()->count(); ++i) // only the selected unit's actions
        QVERIFY2(w.actionList()->item(i)->data(Qt::UserRole).toString().contains(QLatin1Char(' ') + id),
                 qPrintable(w.actionList()->item(i)->text()));
    // Each listed in words, then its notation (what assist mode types): "S1 moves 2 TUM forward   [move S1
    // fwd 2]", "S1 wheels 20° left, then 2.5 TUM forward   [...]", "S1 holds   [hold S1]".
    for (int i = 0; i < w.actionList()->count(); ++i) {
        const QString words = w.actionList()->item(i)->text(),
                      text = w.actionList()->item(i)->data(Qt::UserRole).toString();
        QVERIFY2(words.startsWith(id + QLatin1Char(' ')) &&
                     words.endsWith(QStringLiteral("   [%1]").arg(text)) && !words.startsWith(text),
                 qPrintable(words));
    }
    QVERIFY(w.actionList()->item(rowOf(w.actionList(), fwd))->text().contains(QLatin1String("TUM forward")));
    shot(&w, QStringLiteral("tactical-tvbd-select.png"));

    // The listed move, then undo.
    const tactical::Pose before = s->units()[unit].pose;
    const int row = rowOf(w.actionList(), fwd);
    QVERIFY(row >= 0);
    w.actionList()->setCurrentRow(row);
    QTest::mouseClick(w.applyButton(), Qt::LeftButton);
    QVERIFY2(w.lastError().isEmpty(), qPrintable(w.lastError()));
    QVERIFY(!(s->units()[unit].pose.c == before.c));
    QVERIFY(s->actionTexts().contains(fwd));
    QVERIFY(w.undoButton()->isEnabled());
    QTest::mouseClick(w.undoButton(), Qt::LeftButton);
    QCOMPARE(s->units()[unit].pose.c, before.c);
    QVERIFY(!s->actionTexts().contains(fwd));

    // Dragging the selected unit forward on the table moves it straight ahead by the dragged length.
    {
        QTest::mouseClick(w.view()->viewport(), Qt::LeftButton, {}, w.view()->viewPointOfUnit(unit));
        QCOMPARE(w.selected(), unit);
        const double drag = fwd.section(QLatin1Char(' '), 3).toDouble() * 0.5;
        const QPoint from = w.view()->viewPointOfUnit(unit);
        const QPoint to =
            w.view()->mapFromScene(w.view()->toScene(before.fromLocal(before.d / 4 + drag, -before.w / 4)));
        QTest::mousePress(w.view()->viewport(), Qt::LeftButton, {}, from);
        QTest::mouseMove(w.view()->viewport(), (from + to) / 2);
        QTest::mouseMove(w.view()->viewport(), to);
        QTest::mouseRelease(w.view()->viewport(), Qt::LeftButton, {}, to);
        QVERIFY2(w.lastError().isEmpty(), qPrintable(w.lastError()));
        QVERIFY2(s->actionTexts().size() > 0 && s->actionTexts().last().startsWith(
                                                    QStringLiteral("move %1 fwd ").arg(s->units()[unit].id)),
                 qPrintable(s->actionTexts().join(QLatin1Char('|'))));
        const tactical::Vec2 moved = s->units()[unit].pose.c - before.c;
        QVERIFY2(std::abs(moved.length() - drag) < 0.1, qPrintable(QString::number(moved.length())));
        QVERIFY(std::abs(moved.dot(before.forward()) - moved.length()) < 1e-6); // straight ahead
        QTest::mouseClick(w.undoButton(), Qt::LeftButton);
        QCOMPARE(s->units()[unit].pose.c, before.c);
    }

    // Dragging the base ahead and to its left (TVBD 12.1.5): the drag stands for the oblique or wheel that
    // ends nearest to where the base was dragged, its ghost drawn gold while the engine allows it; dropped,
    // it is that move. Dragged beyond its move allowance (12.1.3), it stops at the allowance. A unit that has
    // moved (12.1: once a step) drags a red ghost with the engine's reason, and the drop is refused with it.
    {
        double listedDist = 0; // the longest straight move listed for the unit
        for (const TacActionView& m : s->legalActions())
            if (m.unit == unit && m.text.startsWith(QStringLiteral("move %1 fwd ").arg(id)))
                listedDist = std::max(listedDist, m.text.section(QLatin1Char(' '), 3).toDouble());
        const QPoint from = w.view()->viewPointOfUnit(unit);
        auto pointAt = [&](double ahead, double left) { // the pressed point moved in the unit's own frame
            return w.view()->mapFromScene(
                w.view()->toScene(before.fromLocal(before.d / 4 + ahead, -before.w / 4 - left)));
        };
        auto drag = [&](QPoint to, bool drop, const QString& shotName) {
            QTest::mousePress(w.view()->viewport(), Qt::LeftButton, {}, from);
            QTest::mouseMove(w.view()->viewport(), (from + to) / 2);
            QTest::mouseMove(w.view()->viewport(), to);
            QVERIFY(w.view()->dragGhostShown());
            shot(&w, shotName);
            if (drop)
                QTest::mouseRelease(w.view()->viewport(), Qt::LeftButton, {}, to);
        };
        const double a = 30 * M_PI / 180, len = std::min(2.5, listedDist * 0.8);
        const tactical::Vec2 target = before.fromLocal(len * std::cos(a), -len * std::sin(a));
        drag(pointAt(len * std::cos(a), len * std::sin(a)), false, QStringLiteral("tactical-tvbd-drag.png"));
        const DragMove shown = w.view()->lastDrag();
        QVERIFY2(shown.text.startsWith(QStringLiteral("move %1 oblique ").arg(id)) ||
                     shown.text.startsWith(QStringLiteral("move %1 wheel ").arg(id)),
                 qPrintable(shown.text));
        QVERIFY2(shown.refused.isEmpty(), qPrintable(shown.text + QLatin1String(": ") + shown.refused));
        QVERIFY2((shown.pose.c - target).length() < 0.5,
                 qPrintable(QString::number((shown.pose.c - target).length())));
        QTest::mouseRelease(w.view()->viewport(), Qt::LeftButton, {},
                            pointAt(len * std::cos(a), len * std::sin(a)));
        QVERIFY2(w.lastError().isEmpty(), qPrintable(w.lastError()));
        QCOMPARE(s->actionTexts().last(), shown.text);
        QVERIFY((s->units()[unit].pose.c - shown.pose.c).length() < 1e-6);
        QCOMPARE(s->units()[unit].pose.facing, shown.pose.facing);

        // Moved: it may not move again this step; the drag says why, and the drop changes nothing.
        const tactical::Pose moved = s->units()[unit].pose;
        const qsizetype applied = s->actionTexts().size();
        QTest::mouseClick(w.view()->viewport(), Qt::LeftButton, {}, w.view()->viewPointOfUnit(unit));
        QCOMPARE(w.selected(), unit);
        const QPoint movedFrom = w.view()->viewPointOfUnit(unit);
        QTest::mousePress(w.view()->viewport(), Qt::LeftButton, {}, movedFrom);
        QTest::mouseMove(w.view()->viewport(), movedFrom + QPoint(0, -40));
        QTest::mouseMove(w.view()->viewport(), movedFrom + QPoint(0, -80));
        const DragMove again = w.view()->lastDrag();
        QVERIFY(!again.text.isEmpty());
        QVERIFY2(again.refused.contains(QStringLiteral("%1 has already acted this step").arg(id)),
                 qPrintable(again.text + QLatin1String(": ") + again.refused));
        shot(&w, QStringLiteral("tactical-tvbd-drag-refused.png"));
        QTest::mouseRelease(w.view()->viewport(), Qt::LeftButton, {}, movedFrom + QPoint(0, -80));
        QVERIFY2(w.lastError().contains(again.refused),
                 qPrintable(w.lastError() + QLatin1String(" / ") + again.refused));
        QCOMPARE(s->actionTexts().size(), applied);
        QCOMPARE(s->units()[unit].pose.c, moved.c);
        QTest::mouseClick(w.undoButton(), Qt::LeftButton);
        QCOMPARE(s->units()[unit].pose.c, before.c);

        // An unlimbered Cannon only pivots on its centre (12.1.8): a drag turns it to face the drag's
        // direction (in 5 degrees). Here it is the other side's gun, so the ghost is red and the drop plays
        // nothing.
        int gun = -1;
        for (qsizetype i = 0; i < s->tvbdState()->units.size() && gun < 0; ++i) {
            const tactical::Unit& x = s->tvbdState()->units[i];
            if (x.type == tactical::UnitType::Cannon && !x.limbered && x.onTable() &&
                x.side != s->tvbdState()->stepSide)
                gun = int(i);
        }
        QVERIFY(gun >= 0);
        QTest::mouseClick(w.view()->viewport(), Qt::LeftButton, {}, w.view()->viewPointOfUnit(gun));
        QCOMPARE(w.selected(), gun);
        {
            const QString gunId = s->units()[gun].id;
            const QPoint at = w.view()->viewPointOfUnit(gun);
            const tactical::Vec2 a0 = w.view()->toTable(w.view()->mapToScene(at));
            const QPoint to = at + QPoint(60, 0);
            const tactical::Vec2 d = w.view()->toTable(w.view()->mapToScene(to)) - a0;
            const double facing = tactical::normDeg(std::round(std::atan2(d.y, d.x) * 180 / M_PI / 5) * 5);
            const qsizetype played = s->actionTexts().size();
            QTest::mousePress(w.view()->viewport(), Qt::LeftButton, {}, at);
            QTest::mouseMove(w.view()->viewport(), at + QPoint(30, 0));
            QTest::mouseMove(w.view()->viewport(), to);
            const DragMove pivot = w.view()->lastDrag();
            QCOMPARE(pivot.text, QStringLiteral("move %1 pivot %2").arg(gunId).arg(facing));
            QCOMPARE(pivot.pose.facing, facing);
            QVERIFY((pivot.pose.c - s->tvbdState()->units[gun].pose.c).length() < 1e-9); // on its centre
            QVERIFY2(pivot.refused.contains(QStringLiteral("%1 is ").arg(gunId)), qPrintable(pivot.refused));
            QVERIFY(w.view()->dragGhostShown());
            QTest::mouseRelease(w.view()->viewport(), Qt::LeftButton, {}, to);
            QCOMPARE(s->actionTexts().size(), played);
        }

        // Far beyond the allowance: straight ahead as far as the engine allows, no further.
        QTest::mouseClick(w.view()->viewport(), Qt::LeftButton, {}, w.view()->viewPointOfUnit(unit));
        QCOMPARE(w.selected(), unit);
        drag(pointAt(listedDist + 6, 0), false, QStringLiteral("tactical-tvbd-drag-far.png"));
        const DragMove far = w.view()->lastDrag();
        QVERIFY2(far.refused.isEmpty(), qPrintable(far.refused));
        QVERIFY2(far.text.startsWith(QStringLiteral("move %1 fwd ").arg(id)), qPrintable(far.text));
        const double went = far.text.section(QLatin1Char(' '), 3).toDouble();
        // The listed straight moves are allowed, so it goes at least as far (here to the river's bank: 12.1.3
        // difficult terrain on the path caps the allowance).
        QVERIFY2(went >= listedDist && went < listedDist + 6, qPrintable(far.text));
        QVERIFY2(!s->refusal(QStringLiteral("move %1 fwd %2").arg(id).arg(went + 0.05)).isEmpty(),
                 qPrintable(far.text));
        QTest::mouseRelease(w.view()->viewport(), Qt::LeftButton, {}, pointAt(listedDist + 6, 0));
        QVERIFY2(w.lastError().isEmpty(), qPrintable(w.lastError()));
        QCOMPARE(s->actionTexts().last(), far.text);
        QTest::mouseClick(w.undoButton(), Qt::LeftButton);
        QCOMPARE(s->units()[unit].pose.c, before.c);
    }

    // A Commander dropped on a friendly unit's base attaches to it (12.1.9), at its centre.
    {
        const tactical::BattleState& st = *s->tvbdState();
        int cmd = -1, to = -1;
        double best = 1e9;
        for (qsizetype i = 0; i < st.units.size(); ++i) {
            const tactical::Unit& c = st.units[i];
            if (c.type != tactical::UnitType::Commander || c.side != st.stepSide || !c.onTable() ||
                c.actedThisStep)
                continue;
            for (qsizetype j = 0; j < st.units.size(); ++j) {
                const tactical::Unit& y = st.units[j];
                const double dist = (y.pose.c - c.pose.c).length();
                if (y.side == c.side && y.type != tactical::UnitType::Commander && y.onTable() &&
                    y.command == c.command && int(j) != c.attachedTo && dist < best) {
                    best = dist;
                    cmd = int(i);
                    to = int(j);
                }
            }
        }
        QVERIFY(cmd >= 0 && to >= 0);
        const QString cmdId = st.units[cmd].id, toId = st.units[to].id;
        w.selectUnit(cmd);
        QCOMPARE(w.selected(), cmd);
        const QPoint from = w.view()->viewPointOfUnit(cmd);
        const tactical::Vec2 grip = w.view()->toTable(w.view()->mapToScene(from)) - st.units[cmd].pose.c;
        const QPoint onto = w.view()->mapFromScene(w.view()->toScene(st.units[to].pose.c + grip));
        QTest::mousePress(w.view()->viewport(), Qt::LeftButton, {}, from);
        QTest::mouseMove(w.view()->viewport(), (from + onto) / 2);
        QTest::mouseMove(w.view()->viewport(), onto);
        const DragMove attach = w.view()->lastDrag();
        QCOMPARE(attach.text, QStringLiteral("move %1 attach %2").arg(cmdId, toId));
        QVERIFY2(attach.refused.isEmpty(), qPrintable(attach.refused));
        QVERIFY((attach.pose.c - st.units[to].pose.c).length() < 1e-9);
        QTest::mouseRelease(w.view()->viewport(), Qt::LeftButton, {}, onto);
        QVERIFY2(w.lastError().isEmpty(), qPrintable(w.lastError()));
        QCOMPARE(s->tvbdState()->units[cmd].attachedTo, to);
        QTest::mouseClick(w.undoButton(), Qt::LeftButton);
        QVERIFY(s->tvbdState()->units[cmd].attachedTo != to);
    }

    // A move measured on the table: not a listed distance, typed in the entry.
    const double listed = fwd.section(QLatin1Char(' '), 3).toDouble();
    QVERIFY(listed > 0.5);
    const double measured = std::round(listed * 0.63 * 100) / 100;
    const QString typed = QStringLiteral("move %1 fwd %2").arg(id).arg(measured);
    bool inList = false;
    for (const TacActionView& a : s->legalActions())
        inList = inList || a.text == typed;
    QVERIFY(!inList);
    w.actionEntry()->setText(typed);
    QTest::keyClick(w.actionEntry(), Qt::Key_Return);
    QVERIFY2(w.lastError().isEmpty(), qPrintable(w.lastError()));
    const tactical::Pose after = s->units()[unit].pose;
    QCOMPARE(qRound((after.c - before.c).length() * 100), qRound(measured * 100));
    QVERIFY(w.actionEntry()->text().isEmpty());
    // Too far: refused with the reason, nothing changes.
    w.actionEntry()->setText(QStringLiteral("move %1 fwd 40").arg(id));
    QTest::keyClick(w.actionEntry(), Qt::Key_Return);
    QVERIFY(!w.lastError().isEmpty());
    QVERIFY(w.resultLabel()->text().contains(QLatin1String("Refused")));
    QVERIFY(w.statusBar()->currentMessage().startsWith(QLatin1String("Refused: ")));
    QCOMPARE(s->units()[unit].pose.c, after.c);

    // Auto-resolve the rest: the battle ends; routed and eliminated units stay drawn, as routed. The
    // refusal above does not outlive the next action in the status bar.
    QTest::mouseClick(w.autoButton(), Qt::LeftButton);
    QVERIFY(s->over());
    QCOMPARE(w.statusBar()->currentMessage(), QString());
    QVERIFY(w.promptLabel()->text().contains(QLatin1String("over")));
    QCOMPARE(w.view()->unitItemCount(), int(s->units().size()));
    QVERIFY(offTable(s) > 0);
    QCOMPARE(w.view()->routedItemCount(), offTable(s));
    bool routed = false;
    for (const TacUnitView& u : s->units())
        routed = routed || (u.routed && !u.onTable && u.status == QLatin1String("routed"));
    QVERIFY(routed);
    // The log dock shows the log, with the rule numbers (12.2 shooting, 14.x melee, 15 morale…).
    QCOMPARE(w.logList()->count(), int(std::min<qsizetype>(3000, s->log().size())));
    const QRegularExpression rule(QStringLiteral("^(1[0-6]|[1-9])\\.[0-9]"));
    int ruled = 0;
    for (int i = 0; i < w.logList()->count(); ++i)
        ruled += rule.match(w.logList()->item(i)->text()).hasMatch() ? 1 : 0;
    QVERIFY2(ruled > 10, qPrintable(QString::number(ruled)));
    // The labels stay readable where units crowd: here (the battle at its end, seed 7) no label covers
    // another, the routed units' included (the layout before this test left two covered).
    auto overlaps = [](const QList<QRectF>& rects) {
        int n = 0;
        for (qsizetype i = 0; i < rects.size(); ++i)
            for (qsizetype j = i + 1; j < rects.size(); ++j)
                n += rects[i].intersects(rects[j]) ? 1 : 0;
        return n;
    };
    QCOMPARE(overlaps(w.view()->labelRects(true)), 0);
    QCOMPARE(overlaps(w.view()->labelRects()), 0);
    shot(&w, QStringLiteral("tactical-tvbd-over.png"));
}

// A property of the drag through a whole battle played by the computer: at each movement step, random drags
// of the acting side's units; a drag shown gold is a move the engine plays, ending where its ghost was (or
// nowhere when a failed command check, 12.1.2, keeps the unit in place); one shown red is refused with the
// very reason shown.
void TestTacticalView::tvbdDragsAgreeWithTheEngine() {
    QString error;
    std::unique_ptr<TacticalSession> s = TacticalSession::open(tvbdScenario(), 12, &error);
    QVERIFY2(s, qPrintable(error));
    std::mt19937 rng(12);
    std::uniform_real_distribution<double> len(0.2, 9.0), angle(-M_PI, M_PI);
    int legal = 0, refused = 0, none = 0, worded = 0;
    QSet<QString> verbs;
    for (int guard = 0; guard < 5000 && !s->over(); ++guard) {
        const tactical::BattleState& st = *s->tvbdState();
        if (st.step == tactical::Step::Move) {
            QList<int> mine;
            for (qsizetype i = 0; i < st.units.size(); ++i)
                if (st.units[i].side == st.stepSide && st.units[i].onTable())
                    mine << int(i);
            for (int k = 0; k < 2 && !mine.isEmpty(); ++k) {
                const int u = mine[int(rng() % mine.size())];
                const double a = angle(rng), l = len(rng);
                const tactical::Vec2 delta{l * std::cos(a), l * std::sin(a)};
                const DragMove d = s->dragMove(u, delta);
                if (d.text.isEmpty()) {
                    ++none;
                    continue;
                }
                const tactical::Pose before = s->tvbdState()->units[u].pose;
                const qsizetype lines = s->log().size();
                QString why;
                const bool ok = s->applyText(d.text, &why);
                if (!d.refused.isEmpty()) {
                    ++refused;
                    QVERIFY2(!ok, qPrintable(d.text));
                    QCOMPARE(why, d.refused);
                    continue;
                }
                ++legal;
                QVERIFY2(ok, qPrintable(d.text + QLatin1String(": ") + why));
                const tactical::Pose after = s->tvbdState()->units[u].pose;
                bool failedCheck = false;
                for (qsizetype i = lines; i < s->log().size(); ++i)
                    failedCheck = failedCheck || s->log()[i].contains(QLatin1String("12.1.2"));
                if (!(failedCheck && (after.c - before.c).length() < 1e-9))
                    QVERIFY2((after.c - d.pose.c).length() < 1e-6 &&
                                 std::abs(after.facing - d.pose.facing) < 1e-6,
                             qPrintable(d.text));
                if (s->canUndo())
                    QVERIFY(s->undo());
            }
        }
        // The charges (5.1), evades and stands listed in words before their notation.
        if (st.step == tactical::Step::Declare || st.step == tactical::Step::Evade)
            for (const TacActionView& a : s->legalActions())
                if (a.text.startsWith(QLatin1String("charge ")) ||
                    a.text.startsWith(QLatin1String("evade ")) ||
                    a.text.startsWith(QLatin1String("stand "))) {
                    QVERIFY2(a.label.endsWith(QStringLiteral("   [%1]").arg(a.text)) &&
                                 !a.label.startsWith(a.text),
                             qPrintable(a.label));
                    ++worded;
                }
        checkListInWords(s.get(), &verbs); // every action of the battle, the end of a step too
        if (QTest::currentTestFailed())
            return;
        QString text;
        if (!s->applyPolicyAction(&text))
            break;
    }
    QVERIFY2(worded > 0, "no charge, evade or stand listed");
    for (const char* v : {"move", "shoot", "charge", "hold", "end"})
        QVERIFY2(verbs.contains(QLatin1String(v)), v);
    QVERIFY2(
        s->over() && legal >= 100 && refused >= 100, // seed 12: 196 and 342 through 7 turns
        qPrintable(QStringLiteral("%1 legal, %2 refused, %3 no move").arg(legal).arg(refused).arg(none)));
}

// Assist mode with TVBD: the dice of a shot come from the hand-dice entry and the dialog, the odds are
// shown before the shot, and the log shows the entered dice.
void TestTacticalView::tvbdAssistDice() {
    TacticalWindow w;
    QString error;
    QVERIFY2(w.openFile(tvbdScenario(), 11, &error), qPrintable(error));
    w.resize(1400, 900);
    w.show();
    TacticalSession* s = w.session();
    // Play the engine's way (auto-resolve policy would end it; here: end each step, moving nobody, and the
    // first unit forward each movement step) until a shot is possible.
    const TacActionView* shotAction = nullptr;
    QList<TacActionView> legal;
    for (int guard = 0; guard < 400 && !s->over(); ++guard) {
        legal = s->legalActions();
        for (const TacActionView& a : legal)
            if (a.kind == TacActionView::Shoot) {
                shotAction = &a;
                break;
            }
        if (shotAction)
            break;
        QString next = QStringLiteral("end");
        for (const TacActionView& a : legal)
            if (a.kind == TacActionView::Move && a.text.contains(QLatin1String(" fwd ")) &&
                s->units()[a.unit].side == s->actor()) {
                next = a.text;
                break;
            }
        bool hasNext = false;
        for (const TacActionView& a : legal)
            hasNext = hasNext || a.text == next;
        if (!hasNext)
            next = legal.front().text;
        QVERIFY2(w.submit(next), qPrintable(w.lastError()));
    }
    QVERIFY2(shotAction, "no shot came up");
    const TacActionView shoot = *shotAction;
    QVERIFY(shoot.odds.contains(QLatin1String("6 to hit")));
    // Selecting the shooter shows the shot on the table and its odds in the read-out.
    QTest::mouseClick(w.view()->viewport(), Qt::LeftButton, {}, w.view()->viewPointOfUnit(shoot.unit));
    QCOMPARE(w.selected(), shoot.unit);
    const int row = rowOf(w.actionList(), shoot.text);
    QVERIFY(row >= 0);
    w.actionList()->setCurrentRow(row);
    QVERIFY2(w.oddsLabel()->text().contains(QLatin1String("expected")), qPrintable(w.oddsLabel()->text()));
    shot(&w, QStringLiteral("tactical-tvbd-shot.png"));

    // Dice by hand: one 5 typed in advance, the rest asked for by the dialog (all 6s).
    QTest::mouseClick(w.handDiceBox(), Qt::LeftButton, {}, QPoint(8, w.handDiceBox()->height() / 2));
    QVERIFY(w.handDiceBox()->isChecked());
    QStringList lines;
    const int need = s->diceNeeded(shoot.text, {}, &lines, &error);
    QVERIFY2(need >= 1, qPrintable(error));
    w.diceEntry()->setText(QStringLiteral("5"));
    const quint64 rolls = s->rolls();
    DiceAnswerer answer(6);
    QTest::mouseClick(w.applyButton(), Qt::LeftButton);
    const int asked = answer.asked;
    QVERIFY2(w.lastError().isEmpty(), qPrintable(w.lastError()));
    QCOMPARE(s->actionTexts().last(), shoot.text);
    const QList<int> used = s->handDice().last();
    QVERIFY(used.size() >= 1);
    QCOMPARE(used.front(), 5);
    QCOMPARE(quint64(used.size()), s->rolls() - rolls); // every die of the action came from the hand
    QCOMPARE(asked, int(used.size()) - 1);
    for (int i = 1; i < used.size(); ++i)
        QCOMPARE(used[i], 6);
    QVERIFY(w.resultLabel()->text().contains(QLatin1String("dice by hand")));
    QVERIFY(w.resultLabel()->text().contains(QLatin1String("12.2")));
    QVERIFY(w.diceEntry()->text().isEmpty());
    // Too many dice for an action that rolls none are kept for the next one.
    if (!s->over()) {
        for (const TacActionView& a : s->legalActions()) {
            if (s->diceNeeded(a.text, {}, nullptr, &error) != 0)
                continue;
            w.diceEntry()->setText(QStringLiteral("4 4"));
            QVERIFY2(w.submit(a.text), qPrintable(w.lastError()));
            QCOMPARE(w.diceEntry()->text(), QStringLiteral("4 4"));
            QVERIFY(s->handDice().last().isEmpty());
            break;
        }
    }
    // The battle saved (with the hand dice) and opened again replays to the same state.
    {
        QTemporaryDir dir;
        const QString rec = dir.filePath(QStringLiteral("battle.json"));
        QVERIFY2(s->saveRecord(rec, &error), qPrintable(error));
        TacticalWindow again;
        QVERIFY2(again.openFile(rec, 999, &error), qPrintable(error));
        QCOMPARE(again.session()->log(), s->log());
        QCOMPARE(again.session()->actionTexts(), s->actionTexts());
        QCOMPARE(again.session()->handDice(), s->handDice());
        // A record whose dice the action does not use is refused, naming the action.
        QFile f(rec);
        QVERIFY(f.open(QIODevice::ReadOnly));
        QByteArray text = f.readAll();
        f.close();
        text.replace("\"dice\": [", "\"dice\": [3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, ");
        const QString bad = dir.filePath(QStringLiteral("bad.json"));
        QFile g(bad);
        QVERIFY(g.open(QIODevice::WriteOnly));
        g.write(text);
        g.close();
        QVERIFY(!TacticalSession::open(bad, 1, &error));
        QVERIFY2(error.contains(QLatin1String("bad.json")) && error.contains(QLatin1String("actions[")),
                 qPrintable(error));
    }

    // A bad die is refused before anything changes.
    const int n = int(s->actionTexts().size());
    w.diceEntry()->setText(QStringLiteral("7"));
    if (!s->over()) {
        QVERIFY(!w.submit(s->legalActions().front().text));
        QVERIFY(w.lastError().contains(QLatin1String("'7'")));
        QCOMPARE(int(s->actionTexts().size()), n);
    }
}

// Tercios on screen: orders through the list, undo of an order, the initiative dice by hand, the cards
// hidden from the other side, the odds of a shot or charge where one comes up, auto-resolve, destroyed
// units drawn as such.
void TestTacticalView::terciosOnScreen() {
    TacticalWindow w;
    QString error;
    QVERIFY(showExample(w, 3, {1400, 900}));
    TacticalSession* s = w.session();
    QCOMPARE(s->ruleset(), QStringLiteral("tercios"));
    QCOMPARE(w.view()->unitItemCount(), int(s->units().size()));
    QVERIFY(w.promptLabel()->text().contains(QLatin1String("L319")));
    // The entry's example is in Tercios' notation, and the engine reads it (an order now).
    auto* entry = w.findChild<QLineEdit*>(QStringLiteral("tacticalEntry"));
    QVERIFY(entry);
    QVERIFY2(entry->placeholderText().contains(QLatin1String("order A1a fire")),
             qPrintable(entry->placeholderText()));
    QVERIFY2(s->refusal(QStringLiteral("order A1a fire")).isEmpty(),
             qPrintable(s->refusal(QStringLiteral("order A1a fire"))));

    // An order through the list, then undo: the card marker comes and goes.
    const int first = s->legalActions().front().unit;
    QVERIFY(first >= 0);
    w.selectUnit(first);
    const QString ready = QStringLiteral("order %1 ready").arg(s->units()[first].id);
    const int row = rowOf(w.actionList(), ready);
    QVERIFY(row >= 0);
    w.actionList()->setCurrentRow(row);
    QTest::mouseClick(w.applyButton(), Qt::LeftButton);
    QVERIFY(s->units()[first].markers.contains(QStringLiteral("Ready!")));
    QVERIFY(s->canUndo());
    QTest::mouseClick(w.undoButton(), Qt::LeftButton);
    QVERIFY(!s->units()[first].markers.contains(QStringLiteral("Ready!")));

    // A drag while the orders are planned (Tercios L319): the ghost is red with the engine's reason, and the
    // drop is refused with it, nothing played.
    {
        w.selectUnit(first);
        const QPoint from = w.view()->viewPointOfUnit(first);
        QTest::mousePress(w.view()->viewport(), Qt::LeftButton, {}, from);
        QTest::mouseMove(w.view()->viewport(), from + QPoint(0, 30));
        QTest::mouseMove(w.view()->viewport(), from + QPoint(0, 60));
        QVERIFY(w.view()->dragGhostShown());
        const DragMove d = w.view()->lastDrag();
        QVERIFY2(d.text.startsWith(QStringLiteral("move %1 ").arg(s->units()[first].id)), qPrintable(d.text));
        QVERIFY2(!d.refused.isEmpty(), qPrintable(d.text));
        // The label names the move once, then why it is refused.
        const QString label = w.view()->dragLabelText();
        QVERIFY2(label.startsWith(d.text) && label.count(d.text) == 1 &&
                     label.contains(QLatin1String("not legal")),
                 qPrintable(label));
        const qsizetype played = s->actionTexts().size();
        QTest::mouseRelease(w.view()->viewport(), Qt::LeftButton, {}, from + QPoint(0, 60));
        QVERIFY2(w.lastError().contains(d.refused),
                 qPrintable(w.lastError() + QLatin1String(" / ") + d.refused));
        QCOMPARE(s->actionTexts().size(), played);
    }

    // Plan every unit Ready! with dice by hand: the orders roll nothing; the last one brings the
    // initiative roll (Tercios L328), whose dice are asked for.
    w.setAssistDice(true);
    w.diceEntry()->setText(QStringLiteral("2"));
    DiceAnswerer answer(4);
    for (int guard = 0; guard < 60 && s->prompt().contains(QLatin1String("L319")); ++guard) {
        QString next;
        for (const TacActionView& a : s->legalActions())
            if (a.text.endsWith(QLatin1String(" ready"))) {
                next = a.text;
                break;
            }
        QVERIFY(!next.isEmpty());
        const int side = s->actor();
        // The other side's cards are hidden while this side plans.
        for (const TacUnitView& u : s->units())
            if (u.side != side)
                QVERIFY(!u.markers.contains(QStringLiteral("Ready!")));
        QVERIFY2(w.submit(next), qPrintable(w.lastError()));
    }
    QVERIFY2(!s->prompt().contains(QLatin1String("L319")), qPrintable(s->prompt()));
    QVERIFY(answer.asked >= 1);
    const QList<int> used = s->handDice().last();
    QVERIFY(used.size() >= 2);
    QCOMPARE(used.front(), 2);
    QCOMPARE(used[1], 4);
    bool logged = false;
    for (const QString& l : s->log())
        logged = logged || (l.contains(QLatin1String("L328")) || l.contains(QLatin1String("L330")));
    QVERIFY(logged);
    w.setAssistDice(false);

    // Play on with the first listed action (moves towards the enemy come first for Ready! units) until a
    // shot or charge is offered; its exact odds are shown.
    bool odds = false;
    for (int guard = 0; guard < 300 && !s->over() && !odds; ++guard) {
        const QList<TacActionView> legal = s->legalActions();
        for (const TacActionView& a : legal)
            if ((a.kind == TacActionView::Shoot || a.kind == TacActionView::Charge) && !a.odds.isEmpty()) {
                w.selectUnit(a.unit);
                const int r = rowOf(w.actionList(), a.text);
                QVERIFY(r >= 0);
                w.actionList()->setCurrentRow(r);
                QVERIFY(w.oddsLabel()->text().contains(QLatin1String("exact")));
                QVERIFY(w.view()->highlightCount() > 0);
                shot(&w, QStringLiteral("tactical-tercios-odds.png"));
                odds = true;
                break;
            }
        if (odds)
            break;
        QString next = legal.front().text;
        for (const TacActionView& a : legal) // prefer moving closer, then firing, to ending
            if (a.kind == TacActionView::Move && a.end) {
                next = a.text;
                break;
            }
        QVERIFY2(w.submit(next), qPrintable(w.lastError()));
    }
    QVERIFY(odds || s->over());

    QTest::mouseClick(w.autoButton(), Qt::LeftButton);
    QVERIFY(s->over());
    QVERIFY(!s->resultText().isEmpty());
    QCOMPARE(w.view()->unitItemCount(), int(s->units().size()));
    QCOMPARE(w.view()->routedItemCount(), offTable(s));
    bool tercLog = false;
    for (int i = 0; i < w.logList()->count(); ++i)
        tercLog = tercLog || w.logList()->item(i)->text().contains(QLatin1String("Tercios L"));
    QVERIFY(tercLog);
    shot(&w, QStringLiteral("tactical-tercios-over.png"));
}

// Hotseat: the secret order cards are covered whenever the side to act changes, until its player continues.
void TestTacticalView::terciosHotseatCover() {
    TacticalWindow w;
    QString error;
    QVERIFY(showExample(w, 5, {1200, 800}));
    TacticalSession* s = w.session();
    QVERIFY(!w.cover()->isVisible());
    w.setHotseat(true);
    QVERIFY(w.cover()->isVisible());
    const int first = s->actor();
    QVERIFY(w.coverButton()->text().contains(s->sideName(first)));
    QTest::mouseClick(w.coverButton(), Qt::LeftButton);
    QVERIFY(!w.cover()->isVisible());
    // The first side plans every unit: the cover stays down until the other side is to act.
    for (int guard = 0; guard < 40 && s->actor() == first; ++guard) {
        QVERIFY(!w.cover()->isVisible());
        QString next;
        for (const TacActionView& a : s->legalActions())
            if (a.text.endsWith(QLatin1String(" fire")) || a.text.endsWith(QLatin1String(" ready"))) {
                next = a.text;
                break;
            }
        QVERIFY(w.submit(next));
    }
    QVERIFY(s->actor() != first);
    QVERIFY(w.cover()->isVisible());
    QVERIFY(w.coverButton()->text().contains(s->sideName(s->actor())));
    shot(&w, QStringLiteral("tactical-tercios-cover.png"));
    QTest::mouseClick(w.coverButton(), Qt::LeftButton);
    QVERIFY(!w.cover()->isVisible());
    // The first side's cards are hidden from the second.
    for (const TacUnitView& u : s->units())
        if (u.side == first)
            QVERIFY2(u.markers.contains(QStringLiteral("order ?")), qPrintable(u.id));
    w.setHotseat(false);
    QVERIFY(!w.cover()->isVisible());
}

// TVBD 10.4-10.6 and Tercios L1497-1505: a scenario that leaves terrain and deployment to the players starts
// with those decisions in the window; units not yet deployed are not drawn on the table; each deployment
// puts one more unit on it; the battle then goes on to its first turn.
void TestTacticalView::setupDecisionsOnScreen() {
    for (const char* file : {"tvbd-pickup.json", "tercios-deploy-example.json"}) {
        TacticalWindow w;
        QString error;
        QVERIFY2(w.openFile(kSource + QStringLiteral("/scenarios/battles/") + QLatin1String(file), 3, &error),
                 qPrintable(error));
        w.resize(1400, 900);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        TacticalSession* s = w.session();
        auto deployed = [&] {
            int n = 0;
            for (const TacUnitView& u : s->units())
                n += u.deployed;
            return n;
        };
        QCOMPARE(deployed(), 0); // every unit waits for the deployment
        QCOMPARE(w.view()->unitItemCount(), 0);
        QVERIFY(w.actionList()->count() > 0);
        QVERIFY(w.promptLabel()->text().contains(s->sideName(s->actor()).toHtmlEscaped()));
        if (QLatin1String(file).startsWith(QLatin1String("tvbd")))
            QVERIFY2(s->turnText().contains(QLatin1String("set-up")), qPrintable(s->turnText()));
        int guard = 0, seen = 0;
        // Take the first listed action until every unit is deployed, through the list and Apply.
        while (deployed() < int(s->units().size()) && !s->over() && guard++ < 400) {
            const int before = deployed();
            QVERIFY(w.actionList()->count() > 0);
            w.actionList()->setCurrentRow(0);
            QTest::mouseClick(w.applyButton(), Qt::LeftButton);
            QVERIFY(deployed() >= before);
            QCOMPARE(w.view()->unitItemCount(), deployed()); // the table draws exactly the deployed units
            seen = std::max(seen, deployed());
        }
        QCOMPARE(deployed(), int(s->units().size()));
        QVERIFY(seen > 0);
        shot(&w, QStringLiteral("tactical-setup-%1.png")
                     .arg(QString::fromLatin1(file).section(QLatin1Char('-'), 0, 0)));
    }
}

// TVBD 1.1-1.7 in the window: every set-up decision of the pick-up from scratch (tvbd-recruit.json: game
// size, recruiting, the aggressive attacker, terrain cards with two streams, roads, scouting, deployment,
// bombardment) is made in the window — typed in the entry (assist mode: what the players did on their
// table), chosen in the list and applied, a deployment ghost clicked, and a unit deployed by Shift+click.
void TestTacticalView::tvbdEverySetupStepOnScreen() {
    TacticalWindow w;
    QString error;
    QVERIFY2(w.openFile(kSource + QStringLiteral("/scenarios/battles/tvbd-recruit.json"), 5, &error),
             qPrintable(error));
    w.resize(1400, 900);
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    TacticalSession* s = w.session();
    auto type = [&](const QString& text) {
        w.actionEntry()->setText(text);
        QTest::keyClick(w.actionEntry(), Qt::Key_Return);
        return w.lastError();
    };
    auto promptRule = [&] { return s->prompt().section(QLatin1Char(' '), 0, 0); };
    // 10.1, typed as agreed at the table
    QCOMPARE(promptRule(), QStringLiteral("10.1"));
    QVERIFY(s->turnText().contains(QStringLiteral("set-up")));
    const QString refused = type(QStringLiteral("size small units 40")); // refused: Table 4
    QVERIFY2(refused.contains(QStringLiteral("10.1")), qPrintable(refused));
    QCOMPARE(type(QStringLiteral("size small units 12")), QString());
    QCOMPARE(type(QStringLiteral("agree")), QString());
    // 10.2: the first side's army typed, the other's chosen in the list (the first listed each time)
    QCOMPARE(promptRule(), QStringLiteral("10.2"));
    for (const char* a :
         {"recruit command", "recruit I-1 Cannon", "recruit I-1 Horse", "recruit I-1 Horse",
          "recruit command", "recruit I-2 PikeShot", "recruit I-2 PikeShot", "recruit I-2 PikeShot"})
        QCOMPARE(type(QLatin1String(a)), QString());
    QVERIFY(w.actionList()->count() > 1);
    QVERIFY(w.actionList()->item(0)->text().contains(QStringLiteral("coins"))); // what a recruit costs
    QCOMPARE(type(QStringLiteral("end")), QString());
    QSet<QString> rules;
    int guard = 0, ghosts = 0;
    bool clickedGhost = false, shiftDeployed = false;
    while (!s->turnText().startsWith(QStringLiteral("Turn 1")) && !s->over() && guard++ < 400) {
        rules.insert(promptRule());
        QVERIFY2(w.actionList()->count() > 0, qPrintable(s->prompt()));
        w.actionList()->setCurrentRow(0);
        if (promptRule() == QStringLiteral("10.6")) {
            ghosts = std::max(ghosts, w.view()->highlightCount()); // the unit's places drawn on the table
            const QString first = w.actionList()->item(0)->data(Qt::UserRole).toString();
            if (!shiftDeployed && first.startsWith(QStringLiteral("deploy"))) {
                // Shift+click where the first listed place is: deployed there (as the players did)
                const QStringList xy = first.section(QLatin1Char(' '), 2, 2).split(QLatin1Char(','));
                const QPoint at =
                    w.view()->mapFromScene(w.view()->toScene({xy[0].toDouble(), xy[1].toDouble()}));
                const int n = int(s->actionTexts().size());
                QTest::mouseClick(w.view()->viewport(), Qt::LeftButton, Qt::ShiftModifier, at);
                QVERIFY2(w.lastError().isEmpty(), qPrintable(w.lastError()));
                QCOMPARE(int(s->actionTexts().size()), n + 1);
                QVERIFY2(s->actionTexts().last().startsWith(first.section(QLatin1Char(' '), 0, 1)),
                         qPrintable(s->actionTexts().last()));
                shiftDeployed = true;
                continue;
            }
            if (!clickedGhost && w.view()->highlightCount() > 0) {
                const QPoint at = w.view()->mapFromScene(w.view()->toScene([&] {
                    const QStringList xy = first.section(QLatin1Char(' '), 2, 2).split(QLatin1Char(','));
                    return tactical::Vec2{xy[0].toDouble(), xy[1].toDouble()};
                }()));
                const int n = int(s->actionTexts().size());
                QTest::mouseClick(w.view()->viewport(), Qt::LeftButton, {}, at);
                if (int(s->actionTexts().size()) == n + 1) {
                    QCOMPARE(s->actionTexts().last(), first);
                    clickedGhost = true;
                    continue;
                }
            }
            if (guard % 7 == 0)
                shot(&w, QStringLiteral("tactical-setup-deploy.png"));
        }
        const int n = int(s->actionTexts().size());
        QTest::mouseClick(w.applyButton(), Qt::LeftButton);
        QVERIFY2(int(s->actionTexts().size()) == n + 1, qPrintable(w.lastError()));
    }
    QVERIFY2(s->turnText().startsWith(QStringLiteral("Turn 1")) || s->over(), qPrintable(s->turnText()));
    for (const char* r : {"10.2", "16.4", "16.6.5", "16.6.8", "10.6"})
        QVERIFY2(rules.contains(QLatin1String(r)), r);
    QVERIFY(ghosts > 0);
    QVERIFY(clickedGhost);
    QVERIFY(shiftDeployed);
    int onTable = 0;
    for (const TacUnitView& u : s->units())
        onTable += u.deployed;
    QCOMPARE(onTable, int(s->units().size()));
    QCOMPARE(w.view()->unitItemCount(), onTable);
    for (const QString& line : s->log())
        if (line.startsWith(QLatin1String("1.7")))
            rules.insert(QStringLiteral("1.7"));
    QVERIFY(rules.contains(QStringLiteral("1.7"))); // the bombardment step came before turn 1
    shot(&w, QStringLiteral("tactical-setup-recruit.png"));
}

// TVBD 10.2 in the window, hot-seat: while the second side recruits, nothing on screen shows the first
// side's army (units, tooltips, log, the last action's text); the cover asks to pass the screen; once both
// have recruited the log reveals both orders of battle and the units are shown.
void TestTacticalView::tvbdSecretOrderOfBattleOnScreen() {
    TacticalWindow w;
    QVERIFY(showScenario(w, "tvbd-recruit.json", 5, {1400, 900}));
    w.setHotseat(true);
    TacticalSession* s = w.session();
    auto type = [&](const QString& text) {
        if (w.cover()->isVisible())
            QTest::mouseClick(w.coverButton(), Qt::LeftButton);
        w.actionEntry()->setText(text);
        QTest::keyClick(w.actionEntry(), Qt::Key_Return);
        return w.lastError();
    };
    for (const char* a : {"size small units 10", "agree", "recruit command", "recruit I-1 Cannon",
                          "recruit I-1 LightHorse", "recruit I-1 Horse"})
        QCOMPARE(type(QLatin1String(a)), QString());
    QVERIFY(s->holdsSecrets());
    QCOMPARE(s->publicText(QStringLiteral("recruit I-1 Horse")),
             QStringLiteral("recruit I-1 Horse")); // its own
    s->setViewer(1); // the Swedes' human against an Imperial computer seat: not shown
    QVERIFY2(!s->publicText(QStringLiteral("recruit I-1 Horse")).contains(QStringLiteral("I-1")),
             qPrintable(s->publicText(QStringLiteral("recruit I-1 Horse"))));
    s->setViewer(TacticalSession::kFollowActor);
    QCOMPARE(type(QStringLiteral("end")), QString());
    QCOMPARE(s->actor(), 1);
    QVERIFY(w.cover()->isVisible()); // hot-seat: the screen passes to the Swedes
    QVERIFY2(w.cover()->findChild<QLabel*>() == nullptr ||
                 !w.cover()->findChild<QLabel*>()->text().contains(QStringLiteral("order cards")),
             "the cover names the TVBD secret");
    QTest::mouseClick(w.coverButton(), Qt::LeftButton);
    QCOMPARE(type(QStringLiteral("recruit command")), QString());
    QCOMPARE(type(QStringLiteral("recruit S-1 Cannon")), QString());
    auto shownText = [&] { // everything the window shows of the battle, as text
        QStringList out;
        for (const TacUnitView& u : s->units())
            out << u.id << u.name << u.tooltip << u.type;
        for (int i = 0; i < w.logList()->count(); ++i)
            out << w.logList()->item(i)->text();
        for (int i = 0; i < w.actionList()->count(); ++i)
            out << w.actionList()->item(i)->text();
        out << w.promptLabel()->text();
        for (QLabel* l : w.findChildren<QLabel*>())
            if (l->isVisible())
                out << l->text();
        return out.join(QLatin1Char('\n'));
    };
    const QString seen = shownText();
    for (const char* secret : {"IC1", "I1", "I2", "I3", "Light Horse", "I-1:"})
        QVERIFY2(!QRegularExpression(
                      QStringLiteral("\\b%1\\b").arg(QRegularExpression::escape(QLatin1String(secret))))
                      .match(seen)
                      .hasMatch(),
                 secret);
    QVERIFY(seen.contains(QStringLiteral("SC1"))); // its own
    int hidden = 0;
    for (const TacUnitView& u : s->units())
        hidden += u.side == 0 && u.id.isEmpty() && !u.deployed;
    QCOMPARE(hidden, 4);
    shot(&w, QStringLiteral("tactical-tvbd-secret-recruiting.png"));
    // the referee sees both
    s->setViewer(TacticalSession::kReferee);
    QCOMPARE(s->units().first().id, QStringLiteral("IC1"));
    s->setViewer(TacticalSession::kFollowActor);
    for (const char* a : {"recruit S-1 Horse", "end"})
        QCOMPARE(type(QLatin1String(a)), QString());
    QVERIFY(!s->holdsSecrets());
    QCOMPARE(s->units().first().id, QStringLiteral("IC1"));
    QVERIFY(s->log().join(QLatin1Char('\n')).contains(QStringLiteral("orders of battle are revealed")));
    QVERIFY(s->log()
                .join(QLatin1Char('\n'))
                .contains(QStringLiteral("10.2 Imperialists recruit I2 (Light Horse")));
}

// TVBD 10.4 and 16.6 in the window: while a terrain placement or card decision is open, its alternatives
// (the same type and size; the same card decision) are drawn as ghosts on the table, the list's current one
// stronger, the one under the mouse lit; a click on a ghost chooses it.
void TestTacticalView::tvbdTerrainGhostsOnScreen() {
    TacticalWindow w;
    QVERIFY(showScenario(w, "tvbd-pickup.json", 3, {1400, 900}));
    TacticalSession* s = w.session();
    QVERIFY2(s->prompt().startsWith(QStringLiteral("10.4")), qPrintable(s->prompt()));
    const QList<TacActionView> legal = s->legalActions();
    // a medium wood: every listed place for it drawn, the current one in the list among them
    int row = -1, woods = 0;
    QString text;
    for (int i = 0; i < w.actionList()->count(); ++i) {
        const QString t = w.actionList()->item(i)->data(Qt::UserRole).toString();
        if (t.startsWith(QStringLiteral("place woods medium"))) {
            ++woods;
            if (row < 0 || woods == 5) {
                row = i;
                text = t;
            }
        }
    }
    QVERIFY(woods > 4);
    w.actionList()->setCurrentRow(row);
    int group = 0;
    for (const TacActionView& a : legal) {
        group += a.group == QLatin1String("place woods medium");
        if (a.text == text)
            QVERIFY(!a.area.isEmpty() && a.group == QLatin1String("place woods medium"));
        if (a.text == QLatin1String("end"))
            QVERIFY(a.area.isEmpty() && a.group.isEmpty());
    }
    QCOMPARE(w.view()->areaGhostCount(), group);
    shot(&w, QStringLiteral("tactical-tvbd-terrain-ghosts.png"));
    // under the mouse: the ghost at the wood's centre is lit; a click places it
    const QStringList words = text.split(QLatin1Char(' '));
    const QStringList xy = words.value(3).split(QLatin1Char(','));
    const QPoint at =
        w.view()->mapFromScene(w.view()->toScene({xy.value(0).toDouble(), xy.value(1).toDouble()}));
    QTest::mouseMove(w.view()->viewport(), at);
    QTRY_VERIFY(!w.view()->hoveredGhost().isEmpty());
    const QString lit = w.view()->hoveredGhost();
    QVERIFY2(lit.startsWith(QStringLiteral("place woods medium")), qPrintable(lit));
    const int n = int(s->actionTexts().size());
    QTest::mouseClick(w.view()->viewport(), Qt::LeftButton, {}, at);
    QCOMPARE(int(s->actionTexts().size()), n + 1);
    QCOMPARE(s->actionTexts().last(), lit);
    // roads: drawn before they are placed too
    for (int guard = 0; guard < 10 && !s->prompt().contains(QStringLiteral("road")); ++guard) {
        w.actionEntry()->setText(QStringLiteral("end"));
        QTest::keyClick(w.actionEntry(), Qt::Key_Return);
        QCOMPARE(w.lastError(), QString());
    }
    QVERIFY2(s->prompt().contains(QStringLiteral("road")), qPrintable(s->prompt()));
    const int road = [&] {
        for (int i = 0; i < w.actionList()->count(); ++i)
            if (w.actionList()
                    ->item(i)
                    ->data(Qt::UserRole)
                    .toString()
                    .startsWith(QStringLiteral("place road")))
                return i;
        return -1;
    }();
    QVERIFY(road >= 0);
    w.actionList()->setCurrentRow(road);
    QVERIFY(w.view()->areaGhostCount() > 0);
    shot(&w, QStringLiteral("tactical-tvbd-road-ghosts.png"));

    // 16.6 terrain cards: a card decision draws the sectors it touches
    TacticalWindow c;
    QVERIFY(showScenario(c, "tvbd-cards.json", 3, {1400, 900}));
    int cardRow = -1;
    for (int i = 0; i < c.actionList()->count() && cardRow < 0; ++i)
        if (c.actionList()->item(i)->data(Qt::UserRole).toString().startsWith(QStringLiteral("card ")))
            cardRow = i;
    QVERIFY2(cardRow >= 0, qPrintable(c.session()->prompt()));
    c.actionList()->setCurrentRow(cardRow);
    QVERIFY(c.view()->areaGhostCount() > 0);
    // the list says what the cards hold (the 16.6.3 deal: sector 1's card first)
    const QString dealt = c.session()->log().filter(QStringLiteral("16.6.3")).value(0);
    const QString first =
        dealt.section(QStringLiteral(": 1 "), 1).section(QLatin1Char(' '), 0, 1); // "field small"
    QVERIFY2(!first.isEmpty() &&
                 c.actionList()->item(cardRow)->text().contains(QStringLiteral("1: ") + first),
             qPrintable(c.actionList()->item(cardRow)->text() + QStringLiteral(" / ") + dealt));
    shot(&c, QStringLiteral("tactical-tvbd-card-ghosts.png"));
}

// Hotseat (Tercios L319, L366): three turns played through the window's list with the cover on; whenever
// a player has the screen, nothing shows the other side's face-down cards; a record saved mid-turn reopens
// behind the cover and hides them too.
void TestTacticalView::terciosSecretsInHotseat() {
    TacticalWindow w;
    QString error;
    QVERIFY(showExample(w, 7, {1200, 800}));
    w.setHotseat(true);
    wp::rules::Rng rng(3);
    TacticalSession* s = w.session();
    QTemporaryDir dir;
    const QString record = dir.filePath(QStringLiteral("midturn.json"));
    bool saved = false;
    int steps = 0;
    while (!s->over() && s->terciosState()->turn <= 3 && steps++ < 3000) { // three turns
        if (w.cover()->isVisible())
            QTest::mouseClick(w.coverButton(), Qt::LeftButton);
        QVERIFY(!w.cover()->isVisible());
        checkSecretsHidden(w, s->actor());
        if (QTest::currentTestFailed())
            return;
        if (!saved && s->turnText().contains(QLatin1String("activation")) && s->holdsSecrets()) {
            QVERIFY2(s->saveRecord(record, &error), qPrintable(error));
            saved = true;
            shot(&w, QStringLiteral("tactical-tercios-hotseat-hidden.png"));
        }
        const QString next = policyText(s, rng);
        QVERIFY2(playFromList(w, next), qPrintable(next));
    }
    QVERIFY(s->over() || s->terciosState()->turn == 4);
    QVERIFY(saved);
    // The record reopened in a hotseat window: covered first, then the side to act sees only its own cards.
    TacticalWindow again;
    again.setHotseat(true);
    QVERIFY2(again.openFile(record, 1, &error), qPrintable(error));
    again.resize(1200, 800);
    again.show();
    QVERIFY(again.cover()->isVisible());
    QTest::mouseClick(again.coverButton(), Qt::LeftButton);
    checkSecretsHidden(again, again.session()->actor());
    QVERIFY(again.session()->holdsSecrets());
}

// A linked battle against a computer seat (docs/linked-battles.md "Fight it on screen"): the human side's
// view for three turns — the computer's cards stay face down while it plans, acts and reacts, and its legal
// actions (a reaction list would tell its card) are not listed.
void TestTacticalView::terciosComputerSeatKeepsItsCards() {
    TacticalWindow w;
    QString error;
    QVERIFY(showExample(w, 4, {1200, 800}));
    w.setComputerDelay(0);
    w.setComputerSide(1, true);
    TacticalSession* s = w.session();
    QCOMPARE(s->viewingSide(), 0);
    int checks = 0, computerTurns = 0;
    connect(&w, &TacticalWindow::changed, this, [&]() {
        if (!w.session() || QTest::currentTestFailed())
            return;
        if (!s->over() && w.isComputerSide(s->actor())) {
            ++computerTurns;
            QVERIFY(s->legalActions().size() > 0);
            QCOMPARE(w.actionList()->count(), 1);
            QCOMPARE(w.actionList()->item(0)->text(),
                     s->sideName(1) + QStringLiteral(" (computer) is choosing…"));
            QVERIFY(!(w.actionList()->item(0)->flags() & Qt::ItemIsEnabled));
            QVERIFY(!w.undoButton()->isEnabled()); // the human cannot take back the computer's moves
            if (computerTurns == 30)
                shot(&w, QStringLiteral("tactical-tercios-computer-seat.png"));
        }
        checkSecretsHidden(w, 0);
        ++checks;
    });
    wp::rules::Rng rng(8);
    int steps = 0;
    while (!s->over() && s->terciosState()->turn <= 3 && steps++ < 3000) { // three turns
        for (int k = 0; k < 5000 && !s->over() && w.isComputerSide(s->actor()); ++k)
            QCoreApplication::processEvents();
        if (s->over() || QTest::currentTestFailed())
            break;
        const QString next = policyText(s, rng);
        QVERIFY2(playFromList(w, next), qPrintable(next));
    }
    QVERIFY(!QTest::currentTestFailed());
    QVERIFY(s->over() || s->terciosState()->turn == 4);
    QVERIFY(checks > 50);
    QVERIFY(computerTurns > 20);
}

// Issue 10's computer opponent (docs/tvbd.md "AI", docs/tactical-view.md): "Computer plays" offers none, each
// side by its scenario name, and both; with the defender chosen, the tactical AI plays its decisions by
// itself — stepped by the window's timer, never inside the call that set it (the window stays responsive),
// through the engine's legal actions only — while the player plays the other side through the window. Its
// moves are named in the result box and recorded as the tactical policy's: the saved battle reopens (every
// computer move chosen again and checked), and a computer move said to be the simple policy's is refused.
void TestTacticalView::tvbdComputerOpponent() {
    using namespace wp::tactical;
    TacticalWindow w;
    QString error;
    QVERIFY2(w.openFile(tvbdScenario(), 5, &error), qPrintable(error));
    w.resize(1500, 950);
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    TacticalSession* s = w.session();
    QComboBox* box = w.computerBox();
    QCOMPARE(box->count(), 4);
    QCOMPARE(box->itemText(1), s->sideName(0));
    QCOMPARE(box->itemText(2), s->sideName(1));
    QVERIFY(box->itemText(3).startsWith(QLatin1String("both")));
    QCOMPARE(box->currentIndex(), 0);
    QVERIFY(box->isEnabled());
    QCOMPARE(s->computerPolicy(), QStringLiteral("tactical"));
    w.setComputerDelay(0);
    // the player chooses the defender (side B) in the box, by the keyboard
    box->setFocus();
    QTest::keyClick(box, Qt::Key_Down);
    QTest::keyClick(box, Qt::Key_Down);
    QCOMPARE(box->currentIndex(), 2);
    QVERIFY(w.isComputerSide(1) && !w.isComputerSide(0));

    const TvbdEngine engine(*defaultTvbdRules(&error));
    int computerMoves = 0, playerMoves = 0, steps = 0;
    bool shown = false;
    auto tacticalMoves = [&]() { // -1: a move of another policy
        int n = 0;
        for (const wp::battle::TableMove& m : s->moves()) {
            if (!m.policy.isEmpty() && m.policy != QLatin1String("tactical"))
                return -1;
            n += m.policy == QLatin1String("tactical") ? 1 : 0;
        }
        return n;
    };
    connect(&w, &TacticalWindow::changed, this, [&]() {
        if (w.session() && !s->over() && w.isComputerSide(s->actor())) {
            QCOMPARE(w.actionList()->count(), 1);
            // both names here are plurals ("Bohemian Estates", "Catholic League and Imperialists")
            QCOMPARE(w.actionList()->item(0)->text(),
                     s->sideName(s->actor()) + QStringLiteral(" (computer) are choosing…"));
            QVERIFY(!w.undoButton()->isEnabled());
        }
    });
    while (!s->over() && s->tvbdState()->turn <= 3 && steps++ < 4000) { // three turns
        if (w.isComputerSide(s->actor())) {
            const qsizetype before = s->actionTexts().size();
            // one step of the computer per pass of the event loop: the timer, not a loop inside a call
            for (int k = 0; k < 50 && s->actionTexts().size() == before; ++k)
                QCoreApplication::processEvents();
            QCOMPARE(s->actionTexts().size(), before + 1);
            QVERIFY2(
                w.resultLabel()->text().contains(s->sideName(1) + QStringLiteral(" (computer, tactical AI)")),
                qPrintable(w.resultLabel()->text()));
            ++computerMoves;
            if (computerMoves == 40 && !shown) {
                shot(&w,
                     QStringLiteral("tactical-tvbd-computer-opponent.png")); // its events may play one more
                computerMoves = tacticalMoves();
                shown = true;
            }
            continue;
        }
        // the player: the simple policy's choice, entered in the window
        wp::rules::Rng rng(static_cast<quint64>(steps));
        const QString next =
            actionText(*s->tvbdState(), choosePolicyAction(engine, *s->tvbdState(), Policy::Simple, rng));
        QVERIFY2(w.submit(next), qPrintable(next + QStringLiteral(": ") + w.lastError()));
        ++playerMoves;
    }
    QVERIFY(!QTest::currentTestFailed());
    QVERIFY(s->over() || s->tvbdState()->turn == 4);
    QVERIFY2(computerMoves > 20 && playerMoves > 20,
             qPrintable(QStringLiteral("%1 computer, %2 player").arg(computerMoves).arg(playerMoves)));
    QCOMPARE(tacticalMoves(), computerMoves);

    // the record: the computer's moves as the tactical policy's; it reopens to the same battle
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("against-the-computer.json"));
    QVERIFY2(s->saveRecord(path, &error), qPrintable(error));
    auto again = TacticalSession::openRecord(path, &error);
    QVERIFY2(again, qPrintable(error));
    QCOMPARE(again->log(), s->log());
    QFile f(path);
    QVERIFY(f.open(QIODevice::ReadOnly));
    QJsonObject root = QJsonDocument::fromJson(f.readAll()).object();
    f.close();
    QCOMPARE(root.value(QStringLiteral("tacticalAi")).toInt(-1), tactical::kTacticalAiRevision);
    QJsonArray actions = root.value(QStringLiteral("actions")).toArray();
    qsizetype k = 0;
    while (k < actions.size() &&
           actions[k].toObject().value(QStringLiteral("policy")).toString() != "tactical")
        ++k;
    QVERIFY(k < actions.size());
    aiRevisionOfARecord(root, k, dir.filePath(QStringLiteral("revision.json")));
    if (QTest::currentTestFailed())
        return;
    // every computer move said to be the simple policy's (as a record before the names would say it)
    for (qsizetype i = 0; i < actions.size(); ++i) {
        QJsonObject a = actions[i].toObject();
        if (a.contains(QStringLiteral("policy")))
            a.insert(QStringLiteral("policy"), true);
        actions[i] = a;
    }
    root.insert(QStringLiteral("actions"), actions);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write(QJsonDocument(root).toJson());
    f.close();
    QVERIFY(!TacticalSession::openRecord(path, &error));
    QVERIFY2(error.contains("the policy's move here is"), qPrintable(error));

    // back to none: the computer stops; a linked battle's seats are locked
    box->setFocus();
    QTest::keyClick(box, Qt::Key_Up);
    QTest::keyClick(box, Qt::Key_Up);
    QCOMPARE(box->currentIndex(), 0);
    QVERIFY(!w.isComputerSide(0) && !w.isComputerSide(1));
    w.setComputerSidesLocked(true);
    QVERIFY(!box->isEnabled());

    // "Auto-resolve the rest" plays the computer's policy; an older auto-resolved record's simple policy
    // when named (the battle report opens such a record with it); Tercios has no tactical policy
    auto fresh = TacticalSession::open(tvbdScenario(), 5, &error);
    auto older = TacticalSession::open(tvbdScenario(), 5, &error);
    QVERIFY2(fresh && older, qPrintable(error));
    QVERIFY(fresh->autoResolveRest() > 0 && fresh->over());
    QVERIFY(older->autoResolveRest(QStringLiteral("simple")) > 0 && older->over());
    QCOMPARE(fresh->moves().front().policy, QStringLiteral("tactical"));
    QCOMPARE(older->moves().back().policy, QStringLiteral("simple"));
    QVERIFY(fresh->actionTexts() != older->actionTexts());
    auto tercios =
        TacticalSession::open(kSource + QStringLiteral("/scenarios/battles/tercios-example.json"), 5, &error);
    QVERIFY2(tercios, qPrintable(error));
    QCOMPARE(tercios->computerPolicy(), QStringLiteral("simple"));
    QCOMPARE(tercios->autoResolveRest(QStringLiteral("tactical")), 0);
    QVERIFY(!tercios->applyPolicyAction(nullptr, QStringLiteral("tactical")));
    QVERIFY(tercios->actionTexts().isEmpty());
}

// Issue 11's "done when": a Tercios scenario generated by the battle export (a campaign played to its first
// battle, saved, `westphalia-cli battle export --save ... --rules tercios`) opened in the window and
// (1) played on screen by two players through the list, hotseat; (2) refereed in assist mode — actions typed
// as measured, every die rolled by hand; its record reopens to the same log; (3) auto-resolved.
void TestTacticalView::terciosExportedBattleThreeWays() {
    const wp::LoadResult data = wp::loadGameData(wp::findDataDir());
    QVERIFY(data.ok());
    const wp::rules::Engine engine(data.data);
    wp::rules::GameState g;
    QString error;
    QVERIFY2(engine.newGame(g, QStringLiteral("campaign"), {}, 11, &error), qPrintable(error));
    wp::rules::Rng pick(5);
    QStringList played;
    auto atCombat = [&] {
        return !g.frames.empty() && std::holds_alternative<wp::rules::CombatFrame>(g.frames.back());
    };
    for (int i = 0; i < 20000 && !atCombat() && engine.actor(g) >= 0; ++i) {
        const auto legal = engine.legalActions(g);
        const auto& a = legal[size_t(pick.below(int(legal.size())))];
        played << wp::rules::formatAction(engine.data(), g, a);
        QVERIFY(engine.apply(g, a).ok);
    }
    QVERIFY2(atCombat(), "no battle reached");
    QTemporaryDir dir;
    wp::save::SaveGame save;
    save.fingerprint = data.data->fingerprint;
    save.scenario = QStringLiteral("campaign");
    save.seed = 11;
    save.actions = played;
    const QString tyw = dir.filePath(QStringLiteral("campaign.tyw"));
    QVERIFY2(wp::save::writeFile(tyw, save, &error), qPrintable(error));
    const QString file = dir.filePath(QStringLiteral("battle-tercios.json"));
    QProcess cli;
    cli.start(QStringLiteral(WESTPHALIA_CLI),
              {QStringLiteral("battle"), QStringLiteral("export"), QStringLiteral("--save"), tyw,
               QStringLiteral("--battle-seed"), QStringLiteral("5"), QStringLiteral("--rules"),
               QStringLiteral("tercios"), QStringLiteral("--out"), file});
    QVERIFY(cli.waitForFinished(60000));
    QVERIFY2(cli.exitCode() == 0, qPrintable(QString::fromUtf8(cli.readAllStandardError())));

    // (1) On screen, hotseat: every action through the list and Apply; orders, Wear, Disorder, Weary and
    // the odds are on the screen.
    {
        TacticalWindow w;
        QVERIFY2(w.openFile(file, 5, &error), qPrintable(error));
        w.resize(1500, 950);
        w.show();
        w.setHotseat(true);
        TacticalSession* s = w.session();
        QCOMPARE(s->ruleset(), QStringLiteral("tercios"));
        QVERIFY(s->units().size() >= 4);
        wp::rules::Rng rng(6);
        bool odds = false, worn = false, pictured = false, picturedDisorder = false;
        int steps = 0;
        while (!s->over() && steps++ < 3000) {
            if (w.cover()->isVisible())
                QTest::mouseClick(w.coverButton(), Qt::LeftButton);
            checkSecretsHidden(w, s->actor());
            if (QTest::currentTestFailed())
                return;
            // What the table shows is the state: Wear of Stamina, Disordered, Weary, the order cards the side
            // to act may see (its own, the revealed ones).
            const wp::tactical::TerciosState& st = *s->terciosState();
            const wp::tactical::TerciosState seen = wp::tactical::viewFor(st, s->actor());
            const QList<TacUnitView> shown = s->units();
            bool disorderedNow = false, wearyNow = false;
            for (qsizetype i = 0; i < st.units.size(); ++i) {
                const wp::tactical::TUnit& u = st.units[i];
                if (!u.onTable())
                    continue;
                const int stamina = tengine().stamina(st, int(i));
                QCOMPARE(shown[i].strengthText, QStringLiteral("W%1/%2").arg(u.wear).arg(stamina));
                QCOMPARE(shown[i].markers.contains(QStringLiteral("disordered")), u.disordered);
                QCOMPARE(shown[i].markers.contains(QStringLiteral("weary")), u.wear >= stamina);
                const wp::tactical::Card c = seen.units[i].card;
                if (c != wp::tactical::Card::None && c != wp::tactical::Card::Hidden) {
                    const QString name = wp::tactical::cardName(c);
                    QVERIFY(
                        shown[i].markers.contains(name.left(1).toUpper() + name.mid(1) + QLatin1Char('!')));
                }
                worn = worn || u.wear > 0;
                for (qsizetype j = i + 1; j < st.units.size(); ++j) // drawn bases never overlap
                    QVERIFY(!st.units[j].onTable() || !wp::tactical::overlaps(u.pose, st.units[j].pose));
                disorderedNow = disorderedNow || u.disordered;
                wearyNow = wearyNow || u.wear >= stamina;
            }
            // The next shot or charge selected in the list: its exact odds under the list.
            for (const TacActionView& a : s->legalActions())
                if ((a.kind == TacActionView::Shoot || a.kind == TacActionView::Charge) &&
                    !a.odds.isEmpty()) {
                    w.selectUnit(a.unit);
                    w.actionList()->setCurrentRow(rowOf(w.actionList(), a.text));
                    QVERIFY(w.oddsLabel()->text().startsWith(QStringLiteral("Odds: exact")));
                    odds = true;
                    // for the eye (gui-shots/): an order read-out with a Weary and with a Disordered unit
                    if (!pictured && wearyNow) {
                        shot(&w, QStringLiteral("tactical-tercios-generated-weary.png"));
                        pictured = true;
                    }
                    if (!picturedDisorder && disorderedNow) {
                        shot(&w, QStringLiteral("tactical-tercios-generated-disorder.png"));
                        picturedDisorder = true;
                    }
                    break;
                }
            const QString next = policyText(s, rng);
            QVERIFY2(playFromList(w, next), qPrintable(next));
        }
        QVERIFY(s->over());
        QVERIFY(odds);
        QVERIFY(worn);
        QVERIFY(s->actionTexts().size() > 20); // fought action by action
        shot(&w, QStringLiteral("tactical-tercios-generated-over.png"));
    }

    // (2) Assist mode: the players move their figures; moves are typed as measured (a point short of the
    // listed one), every die is rolled by hand (typed in advance; the dialog would ask for any missing).
    {
        TacticalWindow w;
        QVERIFY2(w.openFile(file, 9, &error), qPrintable(error));
        w.resize(1500, 950);
        w.show();
        w.setAssistDice(true);
        DiceAnswerer answer(3);
        TacticalSession* s = w.session();
        wp::rules::Rng rng(10), dice(77);
        int measured = 0, steps = 0;
        while (!s->over() && steps++ < 3000) {
            QString next = policyText(s, rng);
            const QStringList words = next.split(QLatin1Char(' '));
            if (words.size() == 3 && words[0] == QLatin1String("move")) {
                // the Front Centre moved 90 % of the way: a move the list does not offer
                const int u = s->terciosState()->indexOf(words[1]);
                const wp::tactical::Vec2 from = tengine().centre(s->terciosState()->units[u].pose, 0);
                const QStringList xy = words[2].split(QLatin1Char(','));
                const wp::tactical::Vec2 to{xy[0].toDouble(), xy[1].toDouble()};
                const wp::tactical::Vec2 m = from + (to - from) * 0.9;
                const QString typed =
                    QStringLiteral("move %1 %2,%3")
                        .arg(words[1], QString::number(m.x, 'f', 2), QString::number(m.y, 'f', 2));
                bool listed = false;
                for (const TacActionView& a : s->legalActions())
                    listed = listed || a.text == typed;
                if (!listed) {
                    next = typed;
                    ++measured;
                }
            }
            QStringList hand;
            for (int k = 0; k < 80; ++k)
                hand << QString::number(dice.below(6) + 1);
            w.diceEntry()->setText(hand.join(QLatin1Char(' ')));
            w.actionEntry()->setText(next);
            QTest::keyClick(w.actionEntry(), Qt::Key_Return);
            QVERIFY2(w.lastError().isEmpty(), qPrintable(next + QStringLiteral(": ") + w.lastError()));
        }
        QVERIFY(s->over());
        QVERIFY(measured > 0);
        int rolledByHand = 0;
        for (const QList<int>& d : s->handDice())
            rolledByHand += int(d.size());
        QVERIFY(rolledByHand > 20);
        QVERIFY(w.resultLabel()->text().contains(QStringLiteral("dice by hand")) || s->over());
        const QString record = dir.filePath(QStringLiteral("assist-record.json"));
        QVERIFY2(s->saveRecord(record, &error), qPrintable(error));
        auto replay = TacticalSession::open(record, 1, &error);
        QVERIFY2(replay, qPrintable(error));
        QCOMPARE(replay->log(), s->log());
    }

    // (3) Auto-resolved.
    {
        TacticalWindow w;
        QVERIFY2(w.openFile(file, 12, &error), qPrintable(error));
        w.show();
        QTest::mouseClick(w.autoButton(), Qt::LeftButton);
        QVERIFY(w.session()->over());
        QVERIFY(w.resultLabel()->text().contains(QStringLiteral("auto-resolved")));
        QVERIFY(w.promptLabel()->text().contains(QStringLiteral("The battle is over")));
    }
}

// Tercios in the window's list: every action of a whole battle (orders, the initiative, activations,
// moves, faces, shots, charges, reactions, the end of an activation) in words, then the notation; the
// first steps played through the list and Apply. Spot checks: an order (L319), a move straight ahead (its
// length in inches from the Front Centre), a shot (L503) and a charge (L601, a flank charge named).
void TestTacticalView::terciosListInWords() {
    using namespace wp::tactical;
    TacticalWindow w;
    QVERIFY(showExample(w, 3, {1400, 900}));
    TacticalSession* s = w.session();
    const TerciosState& st = *s->terciosState();
    QSet<QString> verbs;
    bool order = false, move = false, fire = false, charge = false;
    int longest = 0;
    wp::rules::Rng rng(11);
    for (int step = 0; step < 3000 && !s->over(); ++step) {
        checkListInWords(s, &verbs);
        if (QTest::currentTestFailed())
            return;
        for (int r = 0; r < w.actionList()->count() && step < 40; ++r) { // the list shows the labels
            const QListWidgetItem* it = w.actionList()->item(r);
            QVERIFY2(it->text() == labelOf(s, it->data(Qt::UserRole).toString()), qPrintable(it->text()));
        }
        for (const TacActionView& a : s->legalActions()) {
            const QString u = a.unit >= 0 ? st.units[a.unit].id : QString();
            const QString t = a.target >= 0 && a.target < st.units.size() ? st.units[a.target].id : QString();
            if (!order && a.text == QStringLiteral("order %1 ready").arg(u)) { // Tercios L319
                QCOMPARE(a.label, QStringLiteral("%1 gets the Ready! order   [order %1 ready]").arg(u));
                order = true;
            } else if (!move && a.kind == TacActionView::Move && a.text.startsWith(QLatin1String("move"))) {
                const QStringList xy = a.text.section(QLatin1Char(' '), 2, 2).split(QLatin1Char(','));
                const Vec2 to{xy[0].toDouble(), xy[1].toDouble()};
                const Vec2 from = tengine().centre(st.units[a.unit].pose, 0), d = to - from;
                const Vec2 f = st.units[a.unit].pose.forward();
                if (std::abs(d.x * f.y - d.y * f.x) < 0.005 * d.length() && d.dot(f) > 0 &&
                    !a.label.contains(QLatin1String("towards")) &&
                    !a.label.contains(QLatin1String(", into"))) {
                    QCOMPARE(a.label,
                             QStringLiteral("%1 %2 %3\" straight ahead   [%4]")
                                 .arg(u, st.phase == TPhase::Run ? QStringLiteral("runs")
                                                                 : QStringLiteral("moves"))
                                 .arg(QString::number(std::round(d.length() * 10) / 10, 'g', 4), a.text));
                    move = true;
                }
            } else if (!fire && a.text == QStringLiteral("fire %1 %2").arg(u, t)) { // L503, the Front Centre
                QCOMPARE(a.label, QStringLiteral("%1 fires at %2   [fire %1 %2]").arg(u, t));
                fire = true;
            } else if (!charge && a.kind == TacActionView::Charge) { // L601, L617 flank
                const auto path = tengine().chargePath(st, a.unit, a.target);
                QVERIFY(path);
                QCOMPARE(a.label, QStringLiteral("%1 charges %2%3   [charge %1 %2]")
                                      .arg(u, t, path->flank ? QStringLiteral(" in the flank") : QString()));
                charge = true;
            }
        }
        const QString next = policyText(s, rng);
        if (step < 40)
            QVERIFY2(playFromList(w, next), qPrintable(next));
        else
            QVERIFY2(s->applyText(next, nullptr), qPrintable(next));
        if (step < 40 && w.actionList()->count() > 0) { // the longest label so far shown whole
            int widest = 0;
            for (int r = 0; r < w.actionList()->count(); ++r)
                widest = std::max<int>(widest, int(w.actionList()->item(r)->text().size()));
            if (widest > longest) {
                longest = widest;
                shot(&w, QStringLiteral("tactical-tercios-list-words.png"));
                int wrapped = 0;
                checkListFits(w.actionList(), &wrapped);
            }
        }
    }
    QVERIFY(s->over());
    QVERIFY(order && move && fire && charge);
    for (const char* v : {"order", "first", "activate", "move", "fire", "charge", "done", "react", "decline"})
        QVERIFY2(verbs.contains(QLatin1String(v)), v);
}

// The set-up steps in words, each listed action of every step: Tercios L1497-1505 (the deployment side, the
// regiments' lines) and TVBD 1.1-1.6 (game size, recruiting, the aggressive attacker, terrain cards, roads,
// scouting, deployment; the pick-up's terrain placement and the attacker's change), played by the policy
// to the first turn.
void TestTacticalView::setupListInWords() {
    using namespace wp::tactical;
    QString error;
    { // Tercios: the edge and the deployments
        auto s = TacticalSession::open(
            kSource + QStringLiteral("/scenarios/battles/tercios-deploy-example.json"), 3, &error);
        QVERIFY2(s, qPrintable(error));
        QSet<QString> verbs;
        bool deploy = false;
        while (s->terciosState()->phase == TPhase::DeploySide || s->terciosState()->phase == TPhase::Deploy) {
            checkListInWords(s.get(), &verbs);
            if (QTest::currentTestFailed())
                return;
            const TerciosState& st = *s->terciosState();
            for (const TacActionView& a : s->legalActions())
                if (!deploy && a.text.startsWith(QLatin1String("deploy"))) { // L1503: a regiment in one line
                    const TRegiment* r = nullptr;
                    for (const TRegiment& x : st.regiments)
                        if (x.id == a.text.section(QLatin1Char(' '), 1, 1))
                            r = &x;
                    QVERIFY(r);
                    QStringList ids;
                    for (int u : r->units)
                        ids << st.units[u].id;
                    QCOMPARE(a.label,
                             QStringLiteral("%1 deploys %2 (%3) in a line centred on %4   [%5]")
                                 .arg(
                                     s->sideName(r->side), r->id, ids.join(QStringLiteral(", ")),
                                     [&] { // the point in inches, as the table is measured
                                         const QStringList xy =
                                             a.text.section(QLatin1Char(' '), 2, 2).split(QLatin1Char(','));
                                         return QStringLiteral("%1,%2").arg(
                                             QString::number(xy[0].toDouble(), 'g', 4),
                                             QString::number(xy[1].toDouble(), 'g', 4));
                                     }(),
                                     a.text));
                    deploy = true;
                }
            QVERIFY(s->applyPolicyAction(nullptr));
        }
        QVERIFY(deploy);
        QVERIFY(verbs.contains(QStringLiteral("side")) && verbs.contains(QStringLiteral("deploy")));
    }
    for (const char* file : {"tvbd-recruit.json", "tvbd-pickup.json", "tvbd-cards.json"}) {
        // Played in the window (the policy's choices, from a second session in step with it), the list
        // checked at each step: every label in words and shown whole, a long one wrapped.
        const QString path = kSource + QStringLiteral("/scenarios/battles/") + QLatin1String(file);
        TacticalWindow w;
        QVERIFY2(w.openFile(path, 5, &error), qPrintable(error));
        w.resize(1400, 900);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        TacticalSession* s = w.session();
        auto policy = TacticalSession::open(path, 5, &error);
        QVERIFY2(policy, qPrintable(error));
        QSet<QString> verbs, cardWords;
        bool recruit = false;
        int guard = 0, wrapped = 0;
        while (s->tvbdState()->step == Step::Setup && guard++ < 2000) {
            checkListInWords(s, &verbs);
            const int before = wrapped;
            checkListFits(w.actionList(), &wrapped);
            if (QTest::currentTestFailed())
                return;
            if (before == 0 && wrapped > 0)
                shot(&w, QStringLiteral("tactical-setup-words.png"));
            const BattleState& st = *s->tvbdState();
            if (st.setup.stage == SetupStage::GameSize && st.stepSide == 0) { // 10.1, the table's size named
                const TacActionView first = s->legalActions().value(0);
                const QStringList x = first.text.split(QLatin1Char(' ')); // size TABLE units|coins N
                QCOMPARE(x.value(0), QStringLiteral("size"));
                const QList<double> t = defaultTvbdRules()->tables.value(x.value(1));
                QCOMPARE(t.size() >= 2 ? first.label : QString(),
                         QStringLiteral("%1 propose %2 %3 a side on the %4 table (%5 × %6 TUM)   [%7]")
                             .arg(s->sideName(0), x.value(3), x.value(2),
                                  x.value(1) == QLatin1String("shallowSmall")
                                      ? QStringLiteral("shallow small")
                                      : x.value(1))
                             .arg(t.value(0))
                             .arg(t.value(1))
                             .arg(first.text));
            }
            const QString c = st.commands.isEmpty() ? QString() : st.commands[0].id;
            const QString horse = labelOf(s, QStringLiteral("recruit %1 Horse ordinary").arg(c));
            if (st.setup.stage == SetupStage::Recruit && !horse.isEmpty() &&
                !recruit) { // 10.2: what it costs
                recruit = true;
                QCOMPARE(horse,
                         QStringLiteral("%1 recruit an ordinary Horse into %2 (%3 coins)   [recruit %2 Horse "
                                        "ordinary]")
                             .arg(s->sideName(st.stepSide), c)
                             .arg(defaultTvbdRules()->coins(wp::tactical::UnitType::Horse,
                                                            wp::tactical::Quality::Ordinary, false)));
            }
            // the sides' names here are plural ("Imperialists", "Swedes"): plural verbs, "their"
            for (const TacActionView& a : s->legalActions()) {
                for (const char* wrong : {" has ", " its ", " recruits ", " proposes ", " ends ", " places "})
                    QVERIFY2(!a.label.startsWith(s->sideName(st.stepSide) + QLatin1String(wrong)),
                             qPrintable(a.label));
                const QStringList x = a.text.split(QLatin1Char(' '));
                // 16.6-16.7: a card's orientation in words, the number kept after it
                if (a.text.startsWith(QLatin1String("card rotate")) ||
                    a.text.startsWith(QLatin1String("card bend"))) {
                    const int o = x.value(3).toInt();
                    const bool bend =
                        x.value(1) == QLatin1String("bend") ||
                        st.setup.cards.value(x.value(2).toInt() - 1).type == QLatin1String("bend");
                    const QString where = !bend ? (o % 2 == 0 ? QStringLiteral("across the table")
                                                              : QStringLiteral("along the table"))
                                                : QStringLiteral("towards ");
                    QVERIFY2(a.label.contains(where) &&
                                 a.label.contains(QStringLiteral("(orientation %1)   [").arg(o)),
                             qPrintable(a.label));
                    cardWords.insert(x.value(1) + (bend ? QStringLiteral(" bend") : QString()));
                }
                if (a.text == QLatin1String("end") && st.setup.stage == SetupStage::Recruit)
                    QCOMPARE(
                        a.label,
                        QStringLiteral("%1 have recruited their army   [end]").arg(s->sideName(st.stepSide)));
            }
            QString next;
            QVERIFY(policy->applyPolicyAction(&next));
            QVERIFY2(w.submit(next), qPrintable(next + QStringLiteral(": ") + w.lastError()));
        }
        QVERIFY2(s->tvbdState()->step != Step::Setup, file);
        for (const char* v : {"end", "deploy"})
            QVERIFY2(verbs.contains(QLatin1String(v)),
                     qPrintable(QLatin1String(file) + QLatin1Char(' ') + v));
        if (QLatin1String(file) == QLatin1String("tvbd-recruit.json")) {
            for (const char* v : {"size", "agree", "recruit", "aggressive", "card", "place"})
                QVERIFY2(verbs.contains(QLatin1String(v)), v);
            QVERIFY(recruit);
            QVERIFY(wrapped > 0); // the 16.4 offer is long: it wraps, nothing cut off
        }
        if (QLatin1String(file) == QLatin1String("tvbd-cards.json")) // a card turned, in words
            QVERIFY2(cardWords.contains(QStringLiteral("rotate")),
                     qPrintable(QStringList(cardWords.values()).join(QLatin1Char(' '))));
        if (QLatin1String(file) == QLatin1String("tvbd-pickup.json"))
            for (const char* v : {"place", "change"})
                QVERIFY2(verbs.contains(QLatin1String(v)), v);
    }
}

// 16.7: a bend card's stream in words: the two table edges its arms run to (orientation x 90 and x 90 + 90
// degrees, 0 = towards +x, the right-hand edge; 1 = towards the second side's base edge), on the first seed
// whose set-up deals two stream cards.
void TestTacticalView::bendCardInWords() {
    using namespace wp::tactical;
    // The White Mountain battle on terrain cards with 16.7's two streams (as tests/test_tvbd.cpp builds it);
    // the sides are "Catholic League and Imperialists" and "Bohemian Estates" (plural names).
    QFile in(kSource + QStringLiteral("/scenarios/battles/tvbd-white-mountain.json"));
    QVERIFY(in.open(QIODevice::ReadOnly));
    QJsonObject root = QJsonDocument::fromJson(in.readAll()).object();
    root.insert(QStringLiteral("setup"), QJsonObject{{QStringLiteral("terrain"), QStringLiteral("cards")}});
    root.insert(QStringLiteral("options"), QJsonObject{{QStringLiteral("twoStreams"), true}});
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("two-streams.json"));
    QFile out(path);
    QVERIFY(out.open(QIODevice::WriteOnly));
    out.write(QJsonDocument(root).toJson());
    out.close();
    int seen = 0;
    for (quint64 seed = 1; seed <= 300 && seen == 0; ++seed) {
        QString error;
        auto s = TacticalSession::open(path, seed, &error);
        QVERIFY2(s, qPrintable(error));
        const QString arms[] = {QStringLiteral("the right-hand edge and %1' base edge").arg(s->sideName(1)),
                                QStringLiteral("%1' base edge and the left-hand edge").arg(s->sideName(1)),
                                QStringLiteral("the left-hand edge and %1' base edge").arg(s->sideName(0)),
                                QStringLiteral("%1' base edge and the right-hand edge").arg(s->sideName(0))};
        for (int guard = 0; s->tvbdState()->step == Step::Setup && guard < 2000; ++guard) {
            for (const TacActionView& a : s->legalActions()) {
                if (!a.text.startsWith(QLatin1String("card bend ")))
                    continue;
                const QStringList x = a.text.split(QLatin1Char(' ')); // card bend SECTOR ORIENTATION
                const int o = x.value(3).toInt();
                QVERIFY(o >= 0 && o <= 3);
                QCOMPARE(a.label, QStringLiteral("%1 replace the stream card %2 with a bend card, its stream "
                                                 "running from the centre towards %3 (orientation %4)   [%5]")
                                      .arg(s->sideName(s->tvbdState()->stepSide), x.value(2), arms[o])
                                      .arg(o)
                                      .arg(a.text));
                ++seen;
            }
            QVERIFY(s->applyPolicyAction(nullptr));
        }
    }
    QVERIFY2(seen >= 2, qPrintable(QString::number(seen)));
}

// TVBD 10.4: the attacker's one change to the terrain the defender placed, each listed in words: a removal,
// a move (its distance and the table edges it goes towards; the shift in the notation), a swap, a hill made
// gentle or difficult, a road rerouted, or no change. The side's name takes its verb in the right number:
// the pick-up's plural names ("Imperialists remove"), then the same battle with singular ones ("Spain
// removes").
void TestTacticalView::tvbdTerrainChangeInWords() {
    using namespace wp::tactical;
    struct Run {
        const char* sides[2];
        const char* remove;
        const char* move;
        const char* swap;
        const char* make;
        const char* reroute;
    };
    const Run runs[] = {{{"Imperialists", "Swedes"}, "remove", "move", "swap", "make", "reroute"},
                        {{"Spain", "Sweden"}, "removes", "moves", "swaps", "makes", "reroutes"}};
    for (const Run& run : runs) {
        QTemporaryDir dir;
        const QString path = renamedScenario(dir, "tvbd-pickup.json", run.sides[0], run.sides[1]);
        QString error;
        auto s = TacticalSession::open(path, 3, &error);
        QVERIFY2(s, qPrintable(error));
        // the defender's layout on the small table (30 x 30 TUM, the centre zone x 7-23): a wood in the
        // centre and one on a flank, a large difficult hill in the centre, a gentle hill, a road across
        for (const char* t : {"place woods medium 15,15 6x4 0", "place woods small 4,15 4x3 0",
                              "place difficultHill large 15,24 8x6 0", "place gentleHill medium 24,6 6x4 0",
                              "end", "place road 0,15 30,15", "end"})
            QVERIFY2(s->applyText(QLatin1String(t), {}, &error),
                     qPrintable(QLatin1String(t) + QStringLiteral(": ") + error));
        const BattleState& st = *s->tvbdState();
        QCOMPARE(st.setup.stage, SetupStage::TerrainChange);
        QCOMPARE(st.stepSide, st.attacker);
        QVERIFY2(s->prompt().startsWith(QStringLiteral("10.4")), qPrintable(s->prompt()));
        const QString who = s->sideName(st.stepSide);
        QCOMPARE(who, QLatin1String(run.sides[st.stepSide]));
        auto baseEdge = [&](int side) { // "Swedes' base edge", "Spain's base edge"
            const QString name = s->sideName(side);
            return name + (name.endsWith(QLatin1Char('s')) ? QStringLiteral("'") : QStringLiteral("'s")) +
                   QStringLiteral(" base edge");
        };
        // the features as placed, named as the list names them: "p1 (woods)", "p3 (difficult hill)"
        const QHash<QString, QString> typeWords{
            {QStringLiteral("woods"), QStringLiteral("woods")},
            {QStringLiteral("difficultHill"), QStringLiteral("difficult hill")},
            {QStringLiteral("gentleHill"), QStringLiteral("gentle hill")},
            {QStringLiteral("road"), QStringLiteral("road")}};
        QCOMPARE(st.setup.specs.size(), 5);
        QStringList id, f;
        for (const TerrainSpec& t : st.setup.specs) {
            QVERIFY2(typeWords.contains(t.type), qPrintable(t.type));
            id << t.id;
            f << QStringLiteral("%1 (%2)").arg(t.id, typeWords.value(t.type));
        }
        const QString wood = f[0], flankWood = f[1], hill = f[2], gentle = f[3], road = f[4];
        const QList<std::pair<QString, QString>> expected{
            // notation, words
            {QStringLiteral("change remove %1").arg(id[0]),
             QStringLiteral("%1 %2 %3").arg(who, run.remove, wood)},
            {QStringLiteral("change move %1 8,0").arg(id[0]),
             QStringLiteral("%1 %2 %3 8 TUM towards the right-hand edge").arg(who, run.move, wood)},
            {QStringLiteral("change move %1 -2.83,-2.83").arg(id[0]),
             QStringLiteral("%1 %2 %3 4 TUM towards the left-hand edge and %4")
                 .arg(who, run.move, wood, baseEdge(0))},
            {QStringLiteral("change move %1 2.83,2.83").arg(id[2]),
             QStringLiteral("%1 %2 %3 4 TUM towards the right-hand edge and %4")
                 .arg(who, run.move, hill, baseEdge(1))},
            {QStringLiteral("change swap %1 %2").arg(id[1], id[2]),
             QStringLiteral("%1 %2 %3 and %4").arg(who, run.swap, flankWood, hill)},
            {QStringLiteral("change gentle %1").arg(id[2]),
             QStringLiteral("%1 %2 %3 a gentle hill").arg(who, run.make, hill)},
            {QStringLiteral("change difficult %1").arg(id[3]),
             QStringLiteral("%1 %2 %3 a difficult hill").arg(who, run.make, gentle)},
            {QStringLiteral("change road %1 road 15,0 15,30").arg(id[4]),
             QStringLiteral("%1 %2 %3 as a road from 15,0 to 15,30").arg(who, run.reroute, road)},
            {QStringLiteral("end"), QStringLiteral("%1 %2 no change to the terrain").arg(who, run.make)}};
        for (const auto& [text, words] : expected)
            QCOMPARE(labelOf(s.get(), text), QStringLiteral("%1   [%2]").arg(words, text));
        // every listed change: the side's name, then its verb in the number of the name
        const QHash<QString, const char*> verbs{
            {QStringLiteral("remove"), run.remove},  {QStringLiteral("move"), run.move},
            {QStringLiteral("swap"), run.swap},      {QStringLiteral("gentle"), run.make},
            {QStringLiteral("difficult"), run.make}, {QStringLiteral("road"), run.reroute}};
        QSet<QString> kinds;
        for (const TacActionView& a : s->legalActions()) {
            if (a.text == QLatin1String("end"))
                continue;
            const QString kind = a.text.section(QLatin1Char(' '), 1, 1); // change KIND ...
            QVERIFY2(verbs.contains(kind), qPrintable(a.text));
            QVERIFY2(a.label.startsWith(QStringLiteral("%1 %2 ").arg(who, QLatin1String(verbs.value(kind)))),
                     qPrintable(a.label));
            kinds.insert(kind);
        }
        QCOMPARE(kinds.size(), verbs.size());
    }
}

// TVBD 10.5 scouting benefit 1: with armies the players recruited, the side with the scouting advantage
// organises its commands after seeing the enemy's. Each unit it may move to another of its commands is listed
// in words ("I1 (Dragoons) moves to command I-2 (scouting)"), and the end of the step says whether it did
// ("Imperialists keep their commands", "Spain has organised its commands").
void TestTacticalView::tvbdScoutingInWords() {
    using namespace wp::tactical;
    struct Run {
        const char* sides[2];
        const char* keep;      // the end before any unit moved
        const char* organised; // the end after one moved
    };
    const Run runs[] = {{{"Imperialists", "Swedes"}, "keep their", "have organised their"},
                        {{"Spain", "Sweden"}, "keeps its", "has organised its"}};
    for (const Run& run : runs) {
        QTemporaryDir dir;
        // the pick-up from scratch on the scenario's (empty) terrain, without its options (16.4, 16.7): the
        // 10.5 roll follows the recruiting
        const QString path =
            renamedScenario(dir, "tvbd-recruit.json", run.sides[0], run.sides[1], [](QJsonObject& root) {
                QJsonObject setup = root.value(QStringLiteral("setup")).toObject();
                setup.remove(QStringLiteral("terrain"));
                root.insert(QStringLiteral("setup"), setup);
                root.remove(QStringLiteral("options"));
            });
        // the first side recruits two Dragoons (two scouting dice), the second none: the first seed on which
        // the first side hits has it organise its commands
        std::unique_ptr<TacticalSession> s;
        QString error;
        for (quint64 seed = 1; seed <= 50 && !s; ++seed) {
            auto t = TacticalSession::open(path, seed, &error);
            QVERIFY2(t, qPrintable(error));
            auto apply = [&](const QString& a) {
                const bool ok = t->applyText(a, {}, &error);
                if (!ok)
                    error = a + QStringLiteral(": ") + error;
                return ok;
            };
            QVERIFY2(apply(QStringLiteral("size small units 12")) && apply(QStringLiteral("agree")),
                     qPrintable(error));
            // each side's commands, each by the types of its units (the commands' ids are the engine's)
            const QList<QList<QStringList>> armies{
                {{"Dragoons", "Dragoons", "Cannon", "Horse", "Horse"}, {"Horse", "Horse", "Horse"}},
                {{"Cannon", "PikeShot", "PikeShot"}}};
            for (const QList<QStringList>& army : armies) {
                for (const QStringList& units : army) {
                    QVERIFY2(apply(QStringLiteral("recruit command")), qPrintable(error));
                    const QString c = t->tvbdState()->commands.last().id;
                    for (const QString& u : units)
                        QVERIFY2(apply(QStringLiteral("recruit %1 %2").arg(c, u)), qPrintable(error));
                }
                QVERIFY2(apply(QStringLiteral("end")), qPrintable(error));
            }
            if (t->tvbdState()->setup.stage == SetupStage::Organise)
                s = std::move(t);
        }
        QVERIFY(s);
        const BattleState& st = *s->tvbdState();
        QCOMPARE(st.stepSide, 0);
        QVERIFY2(s->prompt().startsWith(QStringLiteral("10.5")), qPrintable(s->prompt()));
        const QString who = s->sideName(0);
        QCOMPARE(who, QLatin1String(run.sides[0]));
        // every unit it may move: "UNIT (TYPE) moves to command COMMAND (scouting)", the unit and the command
        // its own
        int assigns = 0;
        for (const TacActionView& a : s->legalActions()) {
            if (a.text == QLatin1String("end"))
                continue;
            const QStringList x = a.text.split(QLatin1Char(' ')); // assign UNIT COMMAND
            QCOMPARE(x.size(), 3);
            QCOMPARE(x[0], QStringLiteral("assign"));
            const int u = st.indexOf(x[1]);
            QVERIFY2(u >= 0 && st.units[u].side == 0 && st.units[u].type != wp::tactical::UnitType::Commander,
                     qPrintable(a.text));
            const auto c = std::find_if(st.commands.begin(), st.commands.end(),
                                        [&](const Command& k) { return k.id == x[2]; });
            QVERIFY2(c != st.commands.end() && c->side == 0 && c - st.commands.begin() != st.units[u].command,
                     qPrintable(a.text));
            // the first side recruited Dragoons, Cannon and Horse only
            const QString type =
                st.units[u].type == wp::tactical::UnitType::Dragoons ? QStringLiteral("Dragoons")
                : st.units[u].type == wp::tactical::UnitType::Cannon ? QStringLiteral("Cannon")
                                                                     : QStringLiteral("Horse");
            QCOMPARE(a.label, QStringLiteral("%1 (%2) moves to command %3 (scouting)   [%4]")
                                  .arg(st.units[u].id, type, c->id, a.text));
            ++assigns;
        }
        QVERIFY(assigns > 0);
        QCOMPARE(labelOf(s.get(), QStringLiteral("end")),
                 QStringLiteral("%1 %2 commands   [end]").arg(who, QLatin1String(run.keep)));
        // the first Dragoons moves from the first command to the second
        const auto dragoons = std::find_if(st.units.begin(), st.units.end(), [](const Unit& u) {
            return u.type == wp::tactical::UnitType::Dragoons;
        });
        QVERIFY(dragoons != st.units.end());
        const QString unit = dragoons->id, first = st.commands[dragoons->command].id;
        const QString second = [&] {
            for (const Command& k : st.commands)
                if (k.side == 0 && k.id != first)
                    return k.id;
            return QString();
        }();
        const QString assign = QStringLiteral("assign %1 %2").arg(unit, second);
        QCOMPARE(
            labelOf(s.get(), assign),
            QStringLiteral("%1 (Dragoons) moves to command %2 (scouting)   [%3]").arg(unit, second, assign));
        QVERIFY2(s->applyText(assign, {}, &error), qPrintable(error));
        QCOMPARE(st.setup.stage, SetupStage::Organise);
        QCOMPARE(labelOf(s.get(), QStringLiteral("end")),
                 QStringLiteral("%1 %2 commands   [end]").arg(who, QLatin1String(run.organised)));
    }
}

QTEST_MAIN(TestTacticalView)
#include "test_tactical_view.moc"
