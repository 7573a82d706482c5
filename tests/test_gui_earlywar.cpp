// The whole Early War scenario played hotseat through the window alone (issue 6: "every decision is
// reachable"). The test starts the game from the New Game dialog and plays it to the end by driving widgets
// only: the Orders tree and its Play button, the hand's cards, the prompt panel's buttons and attack boxes,
// clicks on the map's ringed spaces, the battle dialog (combat cards, loss allocation, retreat), the siege
// dialog's roll and the hotseat cover. A seeded generator chooses among what the widgets offer; the engine
// is only read (never played) behind the window's back.
//
// For every decision the test lists, for each of the engine's legal actions, the widgets that offer it.
// The "All legal actions" list does not count: an action that only it offers is a reachability bug, and
// the test fails naming the decision and the action. After every step the window must agree with the
// engine: the prompt and who decides, the records (VP, turn, card rounds), the hand shown, the stacks on
// the map, the map's rings and the battle dialog.
//
// WESTPHALIA_GUI_SEED=N plays another game (the game's seed and the choices' generator).
#include "combatdialog.h"
#include "coverwidget.h"
#include "describe.h"
#include "gamecontroller.h"
#include "gui_fixture.h"
#include "handpanel.h"
#include "mainwindow.h"
#include "mapview.h"
#include "newgamedialog.h"
#include "promptpanel.h"
#include "recordspanel.h"
#include "rules/action.h"
#include "rules/internal.h"
#include "rules_fixture.h"
#include "siegedialog.h"
#include "theme.h"

#include <QApplication>
#include <QCheckBox>
#include <QDialogButtonBox>
#include <QDir>
#include <QElapsedTimer>
#include <QLabel>
#include <QListWidget>
#include <QPushButton>
#include <QRadioButton>
#include <QScrollArea>
#include <QSettings>
#include <QSpinBox>
#include <QStandardPaths>
#include <QTreeWidget>
#include <QtTest>

#include <functional>
#include <map>
#include <random>
#include <set>

using namespace wp;
using namespace wp::rules;

namespace {

using guitest::expectedStacks;
using guitest::settle;

// A button that is shown, enabled and scrolled into view in its scroll area (as a player would see it).
bool reachable(QWidget* w) {
    if (!w || !w->isEnabled() || !w->isVisibleTo(w->window()) || !w->window()->isVisible())
        return false;
    for (QWidget* p = w->parentWidget(); p; p = p->parentWidget())
        if (auto* sa = qobject_cast<QScrollArea*>(p)) {
            sa->ensureWidgetVisible(w, 4, 4);
            break;
        }
    return true;
}

// A widget route to one legal action: what a player would do, in words, and doing it.
struct Offer {
    QString how;
    std::function<bool()> run; // false: the widget did not behave as it should (the test fails)
};

class Driver {
  public:
    Driver(MainWindow& window, quint64 seed) : w(window), gc(window.controller()), rng(seed) {}

    // The widgets that offer each legal action now.
    std::vector<std::vector<Offer>> offers() {
        const GameState& s = gc->state();
        const auto& legal = gc->legal();
        std::vector<std::vector<Offer>> out(legal.size());
        PromptPanel* p = w.prompt();
        const bool actionPhase = std::holds_alternative<TurnFrame>(s.frames.back()) &&
                                 std::get<TurnFrame>(s.frames.back()).phase == Phase::Action;
        for (size_t i = 0; i < legal.size(); ++i) {
            const Action a = legal[i];
            // The Orders tree (Action Phase): the item, then Play; or the card in the hand first.
            if (QTreeWidgetItem* item = p->itemFor(a)) {
                out[i].push_back(
                    {QStringLiteral("Orders tree item + Play"), [this, a]() { return playTree(a); }});
                if (a.kind == ActionKind::PlayCard && actionPhase &&
                    w.hand()->view()->cards().contains(a.card))
                    out[i].push_back({QStringLiteral("card in the hand, then the Orders tree"),
                                      [this, a]() { return playFromHand(a); }});
                (void)item;
            }
            // A button of the prompt panel (a siege combat opens the siege dialog, which rolls).
            if (QAbstractButton* b = p->buttonFor(a); b && reachable(b)) {
                if (a.kind == ActionKind::Assault)
                    out[i].push_back(
                        {QStringLiteral("Orders button, then the siege dialog's roll"), [this, a]() {
                             if (!clickButton(w.prompt()->buttonFor(a)))
                                 return false;
                             if (!w.siegeDialog()->isVisible())
                                 return fail(QStringLiteral("the siege dialog did not open"));
                             return clickButton(w.siegeDialog()->rollButton());
                         }});
                else
                    out[i].push_back({QStringLiteral("Orders button"),
                                      [this, a]() { return clickButton(w.prompt()->buttonFor(a)); }});
            }
            // The attack: tick exactly the attacking units, then Attack.
            if (a.kind == ActionKind::Attack && p->attackButton())
                out[i].push_back(
                    {QStringLiteral("attack boxes + Attack"), [this, a]() { return attack(a); }});
            // A ringed space on the map.
            if ((a.kind == ActionKind::Move || a.kind == ActionKind::Retreat ||
                 (a.kind == ActionKind::Choose && choiceTarget(s) == ChoiceTarget::City)) &&
                a.target >= 0 && p->highlights().contains(a.target) && uniqueTarget(legal, a))
                out[i].push_back(
                    {QStringLiteral("click on the map"), [this, a]() { return clickMap(a.target); }});
            // The battle dialog: buttons, or a loss allocation's radio button and "Take these losses".
            if (w.combatDialog()->isVisible()) {
                if (a.kind == ActionKind::Losses) {
                    if (!w.combatDialog()->lossChoices().isEmpty())
                        out[i].push_back({QStringLiteral("battle dialog: loss allocation"),
                                          [this, a]() { return takeLosses(a); }});
                } else if (QAbstractButton* b = w.combatDialog()->buttonFor(a); b && reachable(b)) {
                    out[i].push_back({QStringLiteral("battle dialog button"),
                                      [this, a]() { return clickButton(w.combatDialog()->buttonFor(a)); }});
                }
            }
        }
        return out;
    }

    // One step: chooses a legal action (a kind at random, then one of that kind), then one of the widgets
    // that offer it, and uses it. Returns false (with the failure recorded) if anything disagrees.
    bool step() {
        const GameState& s = gc->state();
        const std::vector<Action> legal = gc->legal();
        auto routes = offers();
        for (size_t i = 0; i < legal.size(); ++i)
            if (routes[i].empty()) {
                return fail(
                    QStringLiteral("decision \"%1\" (%2 to decide): no widget offers the legal action "
                                   "\"%3\" (%4) — only the All legal actions list")
                        .arg(gc->game().prompt(), theme::sideName(gc->actor()), gc->describe(legal[i]),
                             formatAction(gc->data(), s, legal[i])));
            }
        const size_t i = choose(legal);
        const Offer& o = routes[i][pick(routes[i].size())];
        const QString notation = formatAction(gc->data(), s, legal[i]);
        const QString words = gc->describe(legal[i]);
        const qsizetype before = gc->game().actions().size();
        ++used[o.how];
        if (!o.run())
            return fail(QStringLiteral("%1 for \"%2\": %3").arg(o.how, words, failure));
        settle();
        if (gc->game().actions().size() != before + 1)
            return fail(QStringLiteral("%1 for \"%2\" (%3) played %4 actions")
                            .arg(o.how, words, notation)
                            .arg(gc->game().actions().size() - before));
        if (gc->game().actions().back() != notation)
            return fail(QStringLiteral("%1 for \"%2\" played %3 instead of %4")
                            .arg(o.how, words, gc->game().actions().back(), notation));
        return true;
    }

    size_t pick(size_t n) { return std::uniform_int_distribution<size_t>(0, n - 1)(rng); }

    // A player who seeks battle: a kind of action first (attacks, sieges, marches and activations weigh
    // more; a peace offer, which would end the game early, very little), then one of that kind, moves
    // toward an enemy preferred.
    size_t choose(const std::vector<Action>& legal) {
        const GameData& d = gc->data();
        const GameState& s = gc->state();
        std::map<ActionKind, std::vector<size_t>> byKind;
        for (size_t i = 0; i < legal.size(); ++i)
            byKind[legal[i].kind].push_back(i);
        auto kindWeight = [](ActionKind k) {
            switch (k) {
            case ActionKind::Attack:
            case ActionKind::Overrun:
                return 12.0;
            case ActionKind::Assault:
            case ActionKind::Besiege:
                return 8.0;
            case ActionKind::Move:
            case ActionKind::PlayCard:
                return 4.0;
            case ActionKind::OfferPeace:
                return 0.05;
            default:
                return 1.0;
            }
        };
        std::vector<ActionKind> kinds;
        std::vector<double> kw;
        for (const auto& [k, v] : byKind) {
            kinds.push_back(k);
            kw.push_back(kindWeight(k));
        }
        const ActionKind k = kinds[std::discrete_distribution<size_t>(kw.begin(), kw.end())(rng)];
        const std::vector<size_t>& of = byKind[k];
        // Marches: how far each city is from the nearest enemy (pathways), to close in.
        std::vector<int> dist;
        if (k == ActionKind::Move) {
            dist.assign(static_cast<size_t>(d.cities.size()), 1 << 20);
            std::vector<int> queue;
            for (int c = 0; c < static_cast<int>(d.cities.size()); ++c)
                if (hasEnemyUnits(d, s, c, gc->actor())) {
                    dist[static_cast<size_t>(c)] = 0;
                    queue.push_back(c);
                }
            for (size_t q = 0; q < queue.size(); ++q)
                for (const Pathway& pw : d.pathways) {
                    const int from = queue[q], to = pw.a == from ? pw.b : pw.b == from ? pw.a : -1;
                    if (to >= 0 && dist[static_cast<size_t>(to)] > dist[static_cast<size_t>(from)] + 1) {
                        dist[static_cast<size_t>(to)] = dist[static_cast<size_t>(from)] + 1;
                        queue.push_back(to);
                    }
                }
        }
        int here = -1;
        if (const auto* f = std::get_if<ActivationFrame>(&s.frames.back()))
            here = f->at;
        std::vector<double> w8;
        for (size_t i : of) {
            const Action& a = legal[i];
            double x = 1;
            if (a.kind == ActionKind::Move && isCity(a.target) && hasEnemyUnits(d, s, a.target, gc->actor()))
                x = 12;
            else if (a.kind == ActionKind::Move && isCity(a.target) && here >= 0 &&
                     isCity(static_cast<int16_t>(here)) &&
                     dist[static_cast<size_t>(a.target)] < dist[static_cast<size_t>(here)])
                x = 5;
            else if (a.kind == ActionKind::PlayCard && a.use == CardUse::Act)
                x = 3;
            w8.push_back(x);
        }
        return of[std::discrete_distribution<size_t>(w8.begin(), w8.end())(rng)];
    }
    bool fail(const QString& why) {
        failure = why;
        return false;
    }

    QString failure;
    std::map<QString, int> used; // how often each kind of widget was used

  private:
    MainWindow& w;
    GameController* gc;
    std::mt19937_64 rng;

    static bool uniqueTarget(const std::vector<Action>& legal, const Action& a) {
        int n = 0;
        for (const Action& b : legal)
            n += (b.kind == ActionKind::Move || b.kind == ActionKind::Retreat ||
                  b.kind == ActionKind::Choose) &&
                 b.target == a.target;
        return n == 1;
    }

    bool clickButton(QAbstractButton* b) {
        if (!reachable(b))
            return fail(QStringLiteral("the button is not there, hidden or disabled"));
        settle();
        QTest::mouseClick(b, Qt::LeftButton, {}, b->rect().center());
        return true;
    }

    bool selectTreeItem(QTreeWidgetItem* it) {
        QTreeWidget* tree = w.prompt()->cardTree();
        if (!tree || !it)
            return fail(QStringLiteral("no Orders tree item"));
        tree->scrollToItem(it);
        settle();
        const QRect r = tree->visualItemRect(it);
        QTest::mouseClick(tree->viewport(), Qt::LeftButton, {}, r.center());
        settle();
        if (tree->currentItem() != it)
            return fail(QStringLiteral("a click on the tree item did not select it"));
        return true;
    }

    bool playTree(const Action& a) {
        if (!selectTreeItem(w.prompt()->itemFor(a)))
            return false;
        return clickButton(w.prompt()->playButton());
    }

    bool playFromHand(const Action& a) {
        HandView* hv = w.hand()->view();
        const QRect cr = hv->cardRect(a.card);
        if (!cr.isValid() || !hv->isVisible())
            return fail(QStringLiteral("the card is not drawn in the hand"));
        QTest::mouseClick(hv, Qt::LeftButton, {}, cr.center());
        settle();
        // Clicking the card selects its entry in the Orders tree.
        QTreeWidgetItem* cur = w.prompt()->cardTree()->currentItem();
        QTreeWidgetItem* top = cur;
        while (top && top->parent())
            top = top->parent();
        if (!top || top->data(0, Qt::UserRole).toInt() != a.card)
            return fail(QStringLiteral("clicking the card did not select it in the Orders tree"));
        return playTree(a);
    }

    bool attack(const Action& a) {
        std::set<int> want(a.list.begin(), a.list.end());
        for (QCheckBox* cb : w.prompt()->attackBoxes()) {
            const bool on = want.count(cb->property("unit").toInt()) > 0;
            if (cb->isChecked() != on) {
                if (!reachable(cb))
                    return fail(QStringLiteral("an attack box is hidden"));
                settle();
                QTest::mouseClick(cb, Qt::LeftButton, {}, QPoint(8, cb->height() / 2));
                settle();
                if (cb->isChecked() != on)
                    return fail(QStringLiteral("a click did not tick the attack box"));
            }
        }
        return clickButton(w.prompt()->attackButton());
    }

    bool clickMap(int loc) {
        MapView* v = w.mapView();
        v->centerOn(v->painter().locPos(loc));
        settle();
        QTest::mouseClick(v->viewport(), Qt::LeftButton, {}, v->viewportPosOf(loc));
        return true;
    }

    bool takeLosses(const Action& a) {
        CombatDialog* cd = w.combatDialog();
        for (QRadioButton* rb : cd->lossChoices())
            if (cd->buttonFor(a) == rb) {
                if (!reachable(rb))
                    return fail(QStringLiteral("the loss allocation is hidden"));
                settle();
                QTest::mouseClick(rb, Qt::LeftButton, {}, QPoint(8, rb->height() / 2));
                settle();
                if (!rb->isChecked())
                    return fail(QStringLiteral("a click did not choose the allocation"));
                return clickButton(cd->takeLossesButton());
            }
        return fail(QStringLiteral("no radio button for the allocation"));
    }
};

} // namespace

class TestGuiEarlyWar : public QObject {
    Q_OBJECT
    std::shared_ptr<const GameData> d;

    // The window shows what the engine has: who decides and the prompt, the records, the hand, the stacks,
    // the rings on the map, the battle dialog. Returns an empty string or what disagrees.
    static QString disagreement(MainWindow& w) {
        GameController* gc = w.controller();
        const GameData& d = gc->data();
        const GameState& s = gc->state();
        const int actor = gc->actor();
        auto* promptText = w.prompt()->findChild<QLabel*>(QStringLiteral("promptText"));
        auto* banner = w.prompt()->findChild<QLabel*>(QStringLiteral("promptBanner"));
        if (!promptText || !banner)
            return QStringLiteral("the prompt panel has no prompt");
        if (s.gameOver) {
            if (banner->text() != QLatin1String("Game over") || promptText->text() != s.result)
                return QStringLiteral("the end of the game is not shown");
        } else {
            if (promptText->text() != gc->game().prompt())
                return QStringLiteral("prompt shown \"%1\", the engine's \"%2\"")
                    .arg(promptText->text(), gc->game().prompt());
            if (!banner->text().startsWith(theme::sideName(actor)))
                return QStringLiteral("the banner \"%1\" does not name %2")
                    .arg(banner->text(), theme::sideName(actor));
        }
        const RecordsPanel::Shown& r = w.records()->shown();
        if (r.vp != s.vp || r.turn != s.turn || r.rounds[0] != s.roundsUsed[0] ||
            r.rounds[1] != s.roundsUsed[1])
            return QStringLiteral(
                       "records show VP %1 turn %2 rounds %3/%4; the engine VP %5 turn %6 rounds %7/%8")
                .arg(r.vp)
                .arg(r.turn)
                .arg(r.rounds[0])
                .arg(r.rounds[1])
                .arg(s.vp)
                .arg(s.turn)
                .arg(s.roundsUsed[0])
                .arg(s.roundsUsed[1]);
        if (!s.gameOver && actor >= 0 && !w.cover()->isVisible()) {
            QList<int> hand;
            for (int16_t c : s.hand[actor])
                hand << c;
            if (w.hand()->view()->cards() != hand)
                return QStringLiteral("the hand shown is not %1's").arg(theme::sideName(actor));
            if (w.hand()->opponent()->count() != static_cast<int>(s.hand[1 - actor].size()))
                return QStringLiteral("the opponent's hand size is wrong");
        }
        if (static_cast<int>(w.mapView()->stackItems().size()) != expectedStacks(d, s))
            return QStringLiteral("the map draws %1 stacks, the engine has %2")
                .arg(w.mapView()->stackItems().size())
                .arg(expectedStacks(d, s));
        if (w.mapView()->state().highlights != w.prompt()->highlights())
            return QStringLiteral("the map's rings are not the prompt's targets");
        if (!w.cover()->isVisible() && !s.gameOver) {
            QSet<int> moves, rings;
            for (const Action& a : gc->legal())
                if (a.kind == ActionKind::Move)
                    moves.insert(a.target);
            for (auto it = w.prompt()->highlights().begin(); it != w.prompt()->highlights().end(); ++it)
                if (it.value() == Highlight::Move)
                    rings.insert(it.key());
            if (moves != rings)
                return QStringLiteral("the gold rings are not the engine's moves");
            const bool battle = std::holds_alternative<CombatFrame>(s.frames.back());
            if (battle && !(w.combatDialog()->isVisible() && w.combatDialog()->inBattle()))
                return QStringLiteral("a battle is being fought and its dialog is not open");
        }
        return {};
    }

  private slots:
    void initTestCase() {
        // The offscreen platform says this for every dialog shown; nothing to learn from it.
        static QtMessageHandler previous = nullptr;
        previous = qInstallMessageHandler([](QtMsgType t, const QMessageLogContext& c, const QString& m) {
            if (!m.contains(QLatin1String("propagateSizeHints")))
                previous(t, c, m);
        });
        QStandardPaths::setTestModeEnabled(true);
        QCoreApplication::setOrganizationName(QStringLiteral("WestphaliaTest"));
        QCoreApplication::setApplicationName(QStringLiteral("test_gui_earlywar"));
        QSettings().clear();
        qApp->setStyle(QStringLiteral("Fusion"));
        qApp->setStyleSheet(theme::styleSheet());
        d = test::rulesData();
    }

    void wholeEarlyWarHotseat_data() {
        QTest::addColumn<quint64>("seed");
        if (qEnvironmentVariableIsSet("WESTPHALIA_GUI_SEED")) {
            const quint64 seed = qEnvironmentVariable("WESTPHALIA_GUI_SEED").toULongLong();
            QTest::newRow(qPrintable(QStringLiteral("seed %1").arg(seed))) << seed;
            return;
        }
        QTest::newRow("seed 1") << quint64(1);
        QTest::newRow("seed 2") << quint64(2);
    }

    void wholeEarlyWarHotseat() {
        QFETCH(quint64, seed);
        MainWindow w(d);
        w.resize(1600, 1000);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));

        // Game ▸ New Game: the Early War, the seed, both sides human here with the cover between them.
        bool dialogSeen = false;
        QTimer::singleShot(0, &w, [&]() {
            auto* dlg = qobject_cast<NewGameDialog*>(QApplication::activeModalWidget());
            if (!dlg)
                return;
            dialogSeen = true;
            QListWidget* list = dlg->scenarios();
            for (int i = 0; i < list->count(); ++i)
                if (list->item(i)->data(Qt::UserRole).toString() == QLatin1String("early-war")) {
                    list->scrollToItem(list->item(i));
                    QTest::mouseClick(list->viewport(), Qt::LeftButton, {},
                                      list->visualItemRect(list->item(i)).center());
                }
            auto* random = dlg->findChild<QCheckBox*>(QStringLiteral("randomSeed"));
            if (random && random->isChecked())
                QTest::mouseClick(random, Qt::LeftButton, {}, QPoint(8, random->height() / 2));
            dlg->findChild<QSpinBox*>(QStringLiteral("seed"))->setValue(static_cast<int>(seed));
            QCOMPARE(dlg->setup().seats[0], SeatKind::Human);
            QCOMPARE(dlg->setup().seats[1], SeatKind::Human);
            QVERIFY(dlg->setup().coverHands);
            QTest::mouseClick(dlg->findChild<QDialogButtonBox*>()->button(QDialogButtonBox::Ok),
                              Qt::LeftButton);
        });
        w.newGame();
        settle();
        QVERIFY(dialogSeen);
        GameController* gc = w.controller();
        QVERIFY(gc->hasGame());
        QCOMPARE(gc->game().scenario(), QStringLiteral("early-war"));
        QCOMPARE(gc->game().seed(), seed);
        w.mapView()->fitMap();
        settle();

        Driver driver(w, seed * 7919 + 17);
        QElapsedTimer clock;
        clock.start();
        int steps = 0, covers = 0, battles = 0, sieges = 0, cachedSteps = 0;
        std::set<int> turnsSeen;
        std::map<QString, int> kinds;
        bool inBattle = false;
        const int kMaxSteps = 4000;
        while (!gc->state().gameOver && steps < kMaxSteps) {
            settle();
            // Between the players: only the player to decide lifts the cover.
            if (w.cover()->isVisible()) {
                QCOMPARE(w.cover()->side(), gc->actor());
                QVERIFY2(w.hand()->view()->cards().isEmpty() ||
                             w.hand()->title().contains(QStringLiteral("hidden")),
                         "the hand is hidden under the cover");
                QVERIFY2(w.prompt()->cardTree() == nullptr && w.prompt()->attackBoxes().isEmpty(),
                         "the Orders panel offers nothing under the cover");
                QTest::mouseClick(w.cover()->continueButton(), Qt::LeftButton);
                settle();
                QVERIFY(!w.cover()->isVisible());
                ++covers;
                continue;
            }
            const QString why = disagreement(w);
            QVERIFY2(why.isEmpty(), qPrintable(QStringLiteral("after %1 actions (turn %2, %3): %4")
                                                   .arg(gc->game().actions().size())
                                                   .arg(gc->state().turn)
                                                   .arg(GameController::phaseName(gc->state()), why)));
            QVERIFY2(!gc->legal().empty(), "a decision without a legal action");
            turnsSeen.insert(gc->state().turn);
            const bool battleNow = std::holds_alternative<CombatFrame>(gc->state().frames.back());
            battles += battleNow && !inBattle;
            inBattle = battleNow;
            const qsizetype before = gc->game().actions().size();
            // The map's cached layers are redrawn only when what they show changes (a move redraws only
            // the stacks and the rings): docs/gui.md "Speed".
            const MapState mapBefore = w.mapView()->state();
            const int redrawsBefore = w.mapView()->layerRedraws();
            const QTransform viewBefore = w.mapView()->viewportTransform();
            QVERIFY2(driver.step(), qPrintable(QStringLiteral("after %1 actions (turn %2): %3")
                                                   .arg(before)
                                                   .arg(gc->state().turn)
                                                   .arg(driver.failure)));
            kinds[gc->game().actions().back().section(QLatin1Char(' '), 0, 0)]++;
            ++steps;
            if (w.mapView()->viewportTransform() == viewBefore) {
                bool differ = false;
                for (MapItem* layer : w.mapView()->mapLayers())
                    differ |= MapPainter::layersDiffer(layer->layers(), mapBefore, w.mapView()->state());
                if (!differ) {
                    QCOMPARE(w.mapView()->layerRedraws(), redrawsBefore);
                    ++cachedSteps;
                }
            }
            // A battle that ended leaves its dialog open with the result; the player closes it.
            if (w.combatDialog()->isVisible() && !w.combatDialog()->inBattle()) {
                auto* close = w.combatDialog()->findChild<QPushButton*>(QStringLiteral("closeBattle"));
                QVERIFY(close && close->isEnabled());
                QTest::mouseClick(close, Qt::LeftButton);
                settle();
                QVERIFY(!w.combatDialog()->isVisible());
            }
            if (w.siegeDialog()->isVisible() && !w.siegeDialog()->rollButton()->isVisible()) {
                ++sieges;
                QPushButton* close = nullptr;
                for (QPushButton* b : w.siegeDialog()->findChildren<QPushButton*>())
                    if (b->text() == QLatin1String("Close") && b->isVisible())
                        close = b;
                QVERIFY2(close, "the siege dialog shows its result with a Close button");
                QTest::mouseClick(close, Qt::LeftButton);
                settle();
                QVERIFY(!w.siegeDialog()->isVisible());
            }
        }
        settle();
        QVERIFY2(gc->state().gameOver, qPrintable(QStringLiteral("not over after %1 actions").arg(steps)));
        const QString why = disagreement(w);
        QVERIFY2(why.isEmpty(), qPrintable(why));
        QVERIFY(!gc->state().result.isEmpty());
        if (seed == 1) { // the end of the game, for a person to look at (gui-shots/ where the test runs)
            QTest::keyClick(w.mapView(), Qt::Key_0); // fit the map, as the player would press 0
            settle();
            QDir().mkpath(QStringLiteral("gui-shots"));
            QVERIFY(w.grab().save(
                QDir(QStringLiteral("gui-shots")).absoluteFilePath(QStringLiteral("earlywar-end.png"))));
        }
        // The scenario runs 1618-1628: its five turns were all played.
        QVERIFY(turnsSeen.size() >= 5);

        QStringList widgets, actions;
        for (const auto& [how, n] : driver.used)
            widgets << QStringLiteral("%1 ×%2").arg(how).arg(n);
        for (const auto& [k, n] : kinds)
            actions << QStringLiteral("%1 ×%2").arg(k).arg(n);
        qInfo().noquote() << QStringLiteral(
                                 "Early War, seed %1: %2 actions through the window in %3 s, %4 hand-overs, "
                                 "%5 battles, %6 sieges; %7")
                                 .arg(seed)
                                 .arg(steps)
                                 .arg(static_cast<double>(clock.elapsed()) / 1000.0, 0, 'f', 1)
                                 .arg(covers)
                                 .arg(battles)
                                 .arg(sieges)
                                 .arg(gc->state().result);
        qInfo().noquote() << QStringLiteral("%1 of the actions left every map layer cached").arg(cachedSteps);
        qInfo().noquote() << "widgets used:" << widgets.join(QStringLiteral(", "));
        qInfo().noquote() << "actions played:" << actions.join(QStringLiteral(", "));
        // Every kind of route was used: the tree, the hand, buttons, the map, the battle dialog.
        QVERIFY(driver.used.count(QStringLiteral("Orders tree item + Play")));
        QVERIFY(driver.used.count(QStringLiteral("card in the hand, then the Orders tree")));
        QVERIFY(driver.used.count(QStringLiteral("Orders button")));
        QVERIFY(driver.used.count(QStringLiteral("click on the map")));
        QVERIFY(covers > 10);
        QVERIFY(cachedSteps > steps / 4);
    }
};

QTEST_MAIN(TestGuiEarlyWar)
#include "test_gui_earlywar.moc"
