#include "mainwindow.h"

#include "cardbrowser.h"
#include "combatdialog.h"
#include "coverwidget.h"
#include "handpanel.h"
#include "inspector.h"
#include "logdock.h"
#include "mapview.h"
#include "newgamedialog.h"
#include "promptpanel.h"
#include "recordspanel.h"
#include "rules/internal.h"
#include "siegedialog.h"
#include "theme.h"

#include <QAction>
#include <QApplication>
#include <QCloseEvent>
#include <QDockWidget>
#include <QFileDialog>
#include <QFileInfo>
#include <QLabel>
#include <QMenuBar>
#include <QMessageBox>
#include <QScrollArea>
#include <QSettings>
#include <QStandardPaths>
#include <QStatusBar>
#include <QTimer>
#include <QToolBar>

namespace wp {

using namespace rules;

MainWindow::MainWindow(std::shared_ptr<const GameData> gameData, QWidget* parent)
    : QMainWindow(parent), m_data(std::move(gameData)) {
    setObjectName(QStringLiteral("mainWindow"));
    setWindowTitle(QStringLiteral("Westphalia — Thirty Years War"));
    setWindowIcon(QIcon(QStringLiteral(":/icons/westphalia.svg")));
    setDockOptions(QMainWindow::AnimatedDocks | QMainWindow::AllowTabbedDocks);
    m_gc = new GameController(m_data, this);

    m_map = new MapView(*m_data, this);
    m_map->setObjectName(QStringLiteral("mapView"));
    setCentralWidget(m_map);

    m_prompt = new PromptPanel(m_gc, this);
    m_prompt->setObjectName(QStringLiteral("promptPanel"));
    m_promptDock = new QDockWidget(QStringLiteral("Orders"), this);
    m_promptDock->setObjectName(QStringLiteral("ordersDock"));
    m_promptDock->setWidget(m_prompt);
    m_promptDock->setFeatures(QDockWidget::DockWidgetMovable | QDockWidget::DockWidgetFloatable);
    addDockWidget(Qt::LeftDockWidgetArea, m_promptDock);

    m_records = new RecordsPanel(*m_data, this);
    m_records->setObjectName(QStringLiteral("recordsPanel"));
    auto* recScroll = new QScrollArea(this);
    recScroll->setWidget(m_records);
    recScroll->setWidgetResizable(true);
    recScroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    m_recordsDock = new QDockWidget(QStringLiteral("Records"), this);
    m_recordsDock->setObjectName(QStringLiteral("recordsDock"));
    m_recordsDock->setWidget(recScroll);
    m_recordsDock->setFeatures(QDockWidget::DockWidgetMovable | QDockWidget::DockWidgetFloatable);
    addDockWidget(Qt::RightDockWidgetArea, m_recordsDock);

    m_hand = new HandPanel(*m_data, this);
    m_hand->setObjectName(QStringLiteral("handPanel"));
    m_handDock = new QDockWidget(QStringLiteral("Hand"), this);
    m_handDock->setObjectName(QStringLiteral("handDock"));
    m_handDock->setWidget(m_hand);
    m_handDock->setFeatures(QDockWidget::DockWidgetMovable | QDockWidget::DockWidgetFloatable);
    setCorner(Qt::BottomLeftCorner, Qt::BottomDockWidgetArea);
    setCorner(Qt::BottomRightCorner, Qt::RightDockWidgetArea);
    addDockWidget(Qt::BottomDockWidgetArea, m_handDock);
    connect(m_hand, &HandPanel::titleChanged, m_handDock, &QDockWidget::setWindowTitle);

    m_log = new LogPanel(this);
    m_log->setObjectName(QStringLiteral("logPanel"));
    m_logDock = new QDockWidget(QStringLiteral("Log"), this);
    m_logDock->setObjectName(QStringLiteral("logDock"));
    m_logDock->setWidget(m_log);
    addDockWidget(Qt::RightDockWidgetArea, m_logDock);
    splitDockWidget(m_recordsDock, m_logDock, Qt::Vertical);
    resizeDocks({m_recordsDock, m_logDock}, {640, 300}, Qt::Vertical);
    resizeDocks({m_promptDock, m_recordsDock}, {330, 360}, Qt::Horizontal);
    resizeDocks({m_handDock}, {250}, Qt::Vertical);

    m_combat = new CombatDialog(m_gc, this);
    m_siege = new SiegeDialog(m_gc, this);
    m_inspector = new StackInspector(*m_data, this);
    m_cover = new CoverWidget(this);

    m_statusTurn = new QLabel(this);
    statusBar()->addPermanentWidget(m_statusTurn);
    statusBar()->addPermanentWidget(
        new QLabel(QStringLiteral("data %1").arg(QString::fromLatin1(m_data->fingerprint.left(12))), this));

    buildMenus();

    connect(m_gc, &GameController::changed, this, &MainWindow::onChanged);
    connect(m_prompt, &PromptPanel::submitAction, this, &MainWindow::submit);
    connect(m_combat, &CombatDialog::submitAction, this, &MainWindow::submit);
    connect(m_siege, &SiegeDialog::submitAction, this, &MainWindow::submit);
    connect(m_prompt, &PromptPanel::highlightsChanged, this,
            [this]() { m_map->setHighlights(m_prompt->highlights()); });
    connect(m_prompt, &PromptPanel::openCombat, this, [this]() {
        m_combat->refresh();
        m_combat->show();
        m_combat->raise();
    });
    connect(m_prompt, &PromptPanel::openSiege, this,
            [this](int city, const Action& assault) { m_siege->open(city, assault); });
    connect(m_prompt, &PromptPanel::showCard, this, [this](int card) { m_hand->view()->setSelected(card); });
    connect(m_hand, &HandPanel::cardClicked, this, [this](int card) { m_prompt->selectCard(card); });
    connect(m_hand, &HandPanel::cardDoubleClicked, this, [this](int card) {
        showCardBrowser();
        m_browser->showCard(card);
    });
    connect(m_map, &MapView::locClicked, this, &MainWindow::onLocClicked);
    connect(m_map, &MapView::stackClicked, this, &MainWindow::onStackClicked);
    connect(m_cover, &CoverWidget::revealed, this, [this](int side) {
        m_revealed = side;
        onChanged();
    });

    resize(1600, 1000);
    onChanged();
}

MainWindow::~MainWindow() = default;

void MainWindow::buildMenus() {
    QMenu* game = menuBar()->addMenu(QStringLiteral("&Game"));
    QAction* nw = game->addAction(QStringLiteral("&New Game…"), this, &MainWindow::newGame);
    nw->setShortcut(QKeySequence::New);
    QAction* op = game->addAction(QStringLiteral("&Open…"), this, &MainWindow::openGame);
    op->setShortcut(QKeySequence::Open);
    m_save = game->addAction(QStringLiteral("&Save"), this, &MainWindow::saveGame);
    m_save->setShortcut(QKeySequence::Save);
    m_saveAs = game->addAction(QStringLiteral("Save &As…"), this, &MainWindow::saveGameAs);
    m_saveAs->setShortcut(QKeySequence::SaveAs);
    game->addSeparator();
    QAction* quit = game->addAction(QStringLiteral("&Quit"), this, &QWidget::close);
    quit->setShortcut(QKeySequence::Quit);

    QMenu* edit = menuBar()->addMenu(QStringLiteral("&Edit"));
    m_undo = edit->addAction(QStringLiteral("&Undo"), this, &MainWindow::undo);
    m_undo->setShortcut(QKeySequence::Undo);

    QMenu* view = menuBar()->addMenu(QStringLiteral("&View"));
    QAction* zin = view->addAction(QStringLiteral("Zoom &In"), m_map, &MapView::zoomIn);
    zin->setShortcuts({QKeySequence(Qt::Key_Plus), QKeySequence(Qt::Key_Equal), QKeySequence::ZoomIn});
    QAction* zout = view->addAction(QStringLiteral("Zoom &Out"), m_map, &MapView::zoomOut);
    zout->setShortcuts({QKeySequence(Qt::Key_Minus), QKeySequence::ZoomOut});
    QAction* fit = view->addAction(QStringLiteral("&Fit the Map"), m_map, &MapView::fitMap);
    fit->setShortcuts({QKeySequence(Qt::Key_0), QKeySequence(Qt::CTRL | Qt::Key_0)});
    view->addSeparator();
    QAction* fs = view->addAction(QStringLiteral("&Full Screen"), this, &MainWindow::toggleFullScreen);
    fs->setShortcut(QKeySequence(Qt::Key_F11));
    view->addSeparator();
    view->addAction(QStringLiteral("All &Cards…"), this, &MainWindow::showCardBrowser);
    view->addSeparator();
    for (QDockWidget* dw : {m_promptDock, m_recordsDock, m_handDock, m_logDock})
        view->addAction(dw->toggleViewAction());

    QMenu* help = menuBar()->addMenu(QStringLiteral("&Help"));
    help->addAction(QStringLiteral("&About Westphalia"), this, [this]() {
        QMessageBox::about(
            this, QStringLiteral("About Westphalia"),
            QStringLiteral("<h3>Westphalia %1</h3><p>A desktop edition of GMT's <i>Thirty Years War: "
                           "Europe in Agony 1618-1648</i>.</p><p>Game data: %2<br>fingerprint %3</p>")
                .arg(QCoreApplication::applicationVersion(), m_data->dataDir.toHtmlEscaped(),
                     QString::fromLatin1(m_data->fingerprint.left(16))));
    });

    QToolBar* tb = addToolBar(QStringLiteral("Game"));
    tb->setObjectName(QStringLiteral("gameToolBar"));
    tb->setMovable(false);
    tb->setToolButtonStyle(Qt::ToolButtonTextOnly);
    tb->addAction(nw);
    tb->addAction(op);
    tb->addAction(m_save);
    tb->addSeparator();
    tb->addAction(m_undo);
    tb->addSeparator();
    tb->addAction(zin);
    tb->addAction(zout);
    tb->addAction(fit);
    tb->addSeparator();
    QAction* cards = tb->addAction(QStringLiteral("Cards"), this, &MainWindow::showCardBrowser);
    cards->setToolTip(QStringLiteral("All 110 Strategy cards"));
    nw->setText(QStringLiteral("New Game"));
}

bool MainWindow::handsHidden() const {
    const int actor = m_gc->actor();
    return m_cover->isVisible() || (m_gc->coverHands() && actor >= 0 && m_revealed != actor &&
                                    m_gc->isHumanHere(0) && m_gc->isHumanHere(1));
}

void MainWindow::showScenario(const QString& id) {
    NewGameSetup setup;
    setup.scenario = id;
    setup.seed = 1;
    setup.coverHands = QSettings().value(QStringLiteral("game/coverHands"), true).toBool();
    startGame(setup);
}

bool MainWindow::startGame(const NewGameSetup& setup) {
    QString error;
    m_lastActor = -1;
    m_revealed = -1;
    m_combat->hide();
    m_siege->hide();
    m_cover->hide();
    m_battleResultPending = false;
    if (!m_gc->start(setup, &error)) {
        QMessageBox::warning(this, QStringLiteral("Cannot start the game"),
                             QStringLiteral("%1\n\nChoose another scenario, or check the game data with "
                                            "'westphalia-cli data check'.")
                                 .arg(error));
        return false;
    }
    m_revealed = m_gc->actor(); // the first player sits down at the start
    QSettings().setValue(QStringLiteral("game/lastScenario"), setup.scenario);
    onChanged();
    return true;
}

void MainWindow::startPosition(const GameState& s, const QString& scenario, const GameOptions& options,
                               quint64 seed) {
    m_lastActor = -1;
    m_revealed = -1;
    m_combat->hide();
    m_siege->hide();
    m_cover->hide();
    m_battleResultPending = false;
    m_gc->startFrom(s, scenario, options, seed);
    m_revealed = m_gc->actor();
    onChanged();
}

void MainWindow::newGame() {
    NewGameDialog dlg(*m_data, this);
    if (dlg.exec() != QDialog::Accepted)
        return;
    const NewGameSetup setup = dlg.setup();
    QSettings().setValue(QStringLiteral("game/coverHands"), setup.coverHands);
    startGame(setup);
}

bool MainWindow::openFile(const QString& file) {
    QString error;
    m_lastActor = -1;
    m_cover->hide();
    if (!m_gc->load(file, &error)) {
        QMessageBox::warning(this, QStringLiteral("Cannot open the game"), error);
        return false;
    }
    m_revealed = -1;
    m_lastActor = -1;
    onChanged();
    if (handsHidden() && m_gc->actor() >= 0)
        m_cover->showFor(m_gc->actor(),
                         QStringLiteral("The game %1 is loaded.").arg(QFileInfo(file).fileName()));
    return true;
}

void MainWindow::openGame() {
    const QString dir = QSettings()
                            .value(QStringLiteral("files/lastDir"),
                                   QStandardPaths::writableLocation(QStandardPaths::DocumentsLocation))
                            .toString();
    const QString file = QFileDialog::getOpenFileName(
        this, QStringLiteral("Open a game"), dir, QStringLiteral("Westphalia games (*.tyw);;All files (*)"));
    if (file.isEmpty())
        return;
    QSettings().setValue(QStringLiteral("files/lastDir"), QFileInfo(file).absolutePath());
    openFile(file);
}

bool MainWindow::saveGame() {
    if (!m_gc->hasGame())
        return false;
    if (m_gc->fileName().isEmpty())
        return saveGameAs();
    QString error;
    if (!m_gc->save(m_gc->fileName(), &error)) {
        QMessageBox::warning(this, QStringLiteral("Cannot save the game"), error);
        return false;
    }
    statusBar()->showMessage(QStringLiteral("Saved %1").arg(m_gc->fileName()), 4000);
    return true;
}

bool MainWindow::saveGameAs() {
    if (!m_gc->hasGame())
        return false;
    const QString dir = QSettings()
                            .value(QStringLiteral("files/lastDir"),
                                   QStandardPaths::writableLocation(QStandardPaths::DocumentsLocation))
                            .toString();
    QString file = QFileDialog::getSaveFileName(
        this, QStringLiteral("Save the game"),
        dir + QStringLiteral("/%1-turn%2.tyw").arg(m_gc->game().scenario()).arg(m_gc->state().turn),
        QStringLiteral("Westphalia games (*.tyw)"));
    if (file.isEmpty())
        return false;
    if (!file.endsWith(QLatin1String(".tyw")))
        file += QStringLiteral(".tyw");
    QSettings().setValue(QStringLiteral("files/lastDir"), QFileInfo(file).absolutePath());
    QString error;
    if (!m_gc->save(file, &error)) {
        QMessageBox::warning(this, QStringLiteral("Cannot save the game"), error);
        return false;
    }
    statusBar()->showMessage(QStringLiteral("Saved %1").arg(file), 4000);
    return true;
}

void MainWindow::undo() {
    if (m_gc->undo())
        statusBar()->showMessage(QStringLiteral("Undone"), 2000);
}

void MainWindow::toggleFullScreen() {
    if (isFullScreen())
        showNormal();
    else
        showFullScreen();
}

CardBrowser* MainWindow::cardBrowser() {
    if (!m_browser)
        m_browser = new CardBrowser(*m_data, this);
    return m_browser;
}

void MainWindow::showCardBrowser() {
    cardBrowser()->setState(m_gc->hasGame() ? &m_gc->state() : nullptr);
    m_browser->show();
    m_browser->raise();
}

void MainWindow::restoreLayout() {
    QSettings st;
    restoreGeometry(st.value(QStringLiteral("window/geometry")).toByteArray());
    restoreState(st.value(QStringLiteral("window/state")).toByteArray());
}

void MainWindow::showEvent(QShowEvent* e) {
    QMainWindow::showEvent(e);
    if (m_firstFit) {
        m_firstFit = false;
        QTimer::singleShot(0, m_map, &MapView::fitMap);
    }
}

void MainWindow::closeEvent(QCloseEvent* e) {
    QSettings st;
    st.setValue(QStringLiteral("window/geometry"), saveGeometry());
    st.setValue(QStringLiteral("window/state"), saveState());
    QMainWindow::closeEvent(e);
}

void MainWindow::submit(const Action& a) {
    QString error;
    if (!m_gc->submit(a, &error))
        QMessageBox::warning(this, QStringLiteral("Not allowed"), error);
}

void MainWindow::onLocClicked(int loc) {
    m_prompt->handleLocClick(loc);
}

void MainWindow::onStackClicked(int index) {
    const MapState& s = m_map->state();
    if (index < 0 || index >= s.stacks.size())
        return;
    // A stack standing on a legal target: the click plays it (the stack is in the way of the space).
    if (m_prompt->handleLocClick(s.stacks[index].loc()))
        return;
    m_inspector->showStack(s.stacks[index], m_gc->hasGame() ? &m_gc->state() : nullptr);
}

void MainWindow::updateMap() {
    MapState ms = m_gc->hasGame() ? MapState::fromGame(*m_data, m_gc->state()) : MapState{};
    ms.highlights = m_prompt->highlights();
    m_map->setState(ms);
}

void MainWindow::updateHand() {
    if (!m_gc->hasGame()) {
        m_hand->clear();
        return;
    }
    const GameState& s = m_gc->state();
    int side = m_gc->actor();
    if (side < 0)
        side = s.activeSide;
    if (m_gc->isHumanHere(0) != m_gc->isHumanHere(1)) // against the computer: only the human's own hand
        side = m_gc->isHumanHere(0) ? 0 : 1;
    QList<int> cards;
    for (int16_t c : s.hand[side])
        cards << c;
    // Cards for which some legal action exists now.
    QSet<int> playable;
    for (const Action& a : m_gc->legal())
        if (a.card >= 0)
            playable.insert(a.card);
    if (playable.isEmpty())
        for (int c : cards)
            playable.insert(c);
    m_hand->setHand(side, cards, static_cast<int>(s.hand[1 - side].size()), handsHidden(), playable);
}

void MainWindow::onChanged() {
    const bool has = m_gc->hasGame();
    const int actor = m_gc->actor();
    // Hotseat: when the decision passes to the other player, cover the window first.
    if (has && actor >= 0 && m_lastActor >= 0 && actor != m_lastActor && m_gc->coverHands() &&
        m_gc->isHumanHere(0) && m_gc->isHumanHere(1)) {
        m_revealed = -1;
        m_combat->hide();
        m_cover->showFor(actor, m_gc->game().prompt());
    }
    if (has && actor >= 0)
        m_lastActor = actor;
    if (!m_gc->coverHands())
        m_revealed = actor;

    m_prompt->setHidden(handsHidden());
    updateMap();
    m_records->setState(has ? &m_gc->state() : nullptr, actor);
    updateHand();
    if (has)
        m_log->setLog(m_gc->game().log(), m_gc->state().firstTurn);
    m_undo->setEnabled(m_gc->canUndo());
    m_save->setEnabled(has && m_gc->replayable());
    m_saveAs->setEnabled(has && m_gc->replayable());

    // The battle dialog follows the combat on top of the stack; it stays open to show the result.
    const bool wasInBattle = m_combat->inBattle();
    const bool inBattle = m_combat->refresh();
    if (wasInBattle && !inBattle)
        m_battleResultPending = true;
    if ((inBattle || m_battleResultPending) && !handsHidden()) {
        m_combat->show();
        m_combat->raise();
        m_battleResultPending = false;
    } else if (inBattle) {
        m_combat->hide();
    }

    if (has) {
        const GameState& s = m_gc->state();
        const Scenario* sc = m_data->scenario(s.scenario);
        setWindowTitle(QStringLiteral("Westphalia — %1, turn %2 (%3)")
                           .arg(sc ? sc->name : s.scenario)
                           .arg(s.turn)
                           .arg(theme::turnYears(s.turn)));
        m_statusTurn->setText(QStringLiteral("Turn %1 · %2 · VP %3 · %4 to decide")
                                  .arg(s.turn)
                                  .arg(GameController::phaseName(s))
                                  .arg(s.vp)
                                  .arg(actor >= 0 ? theme::sideName(actor) : QStringLiteral("nobody")));
        if (s.gameOver)
            statusBar()->showMessage(s.result);
    } else {
        m_statusTurn->setText(QStringLiteral("No game"));
    }
}

} // namespace wp
