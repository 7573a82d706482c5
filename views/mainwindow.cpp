#include "mainwindow.h"

#include "battleexportdialog.h"
#include "battlereportdialog.h"
#include "cardbrowser.h"
#include "combatdialog.h"
#include "coverwidget.h"
#include "handpanel.h"
#include "inspector.h"
#include "logdock.h"
#include "mapview.h"
#include "newgamedialog.h"
#include "pbempanel.h"
#include "promptpanel.h"
#include "recordspanel.h"
#include "replaybar.h"
#include "rules/internal.h"
#include "save/savefile.h"
#include "siegedialog.h"
#include "tableresultdialog.h"
#include "tacticalwindow.h"
#include "theme.h"

#include <QAction>
#include <QApplication>
#include <QCloseEvent>
#include <QDateTime>
#include <QDialogButtonBox>
#include <QDir>
#include <QDockWidget>
#include <QDragEnterEvent>
#include <QDropEvent>
#include <QFileDialog>
#include <QFileInfo>
#include <QInputDialog>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QListWidget>
#include <QMenu>
#include <QMenuBar>
#include <QMessageBox>
#include <QMimeData>
#include <QProgressBar>
#include <QSaveFile>
#include <QScrollArea>
#include <QSettings>
#include <QStandardPaths>
#include <QStatusBar>
#include <QTextBrowser>
#include <QTimer>
#include <QToolBar>
#include <QToolButton>
#include <QVBoxLayout>

namespace wp {

using namespace rules;

MainWindow::MainWindow(std::shared_ptr<const GameData> gameData, QWidget* parent)
    : QMainWindow(parent), m_data(std::move(gameData)) {
    setObjectName(QStringLiteral("mainWindow"));
    setWindowTitle(QStringLiteral("Westphalia — Thirty Years War"));
    setWindowIcon(QIcon(QStringLiteral(":/icons/westphalia.svg")));
    setDockOptions(QMainWindow::AnimatedDocks | QMainWindow::AllowTabbedDocks);
    m_gc = new GameController(m_data, this);

    // The centre: the step-through bar (hidden unless stepping) above the map.
    auto* centre = new QWidget(this);
    auto* centreLay = new QVBoxLayout(centre);
    centreLay->setContentsMargins(0, 0, 0, 0);
    centreLay->setSpacing(0);
    m_replay = new ReplayBar(centre);
    m_map = new MapView(*m_data, centre);
    m_map->setObjectName(QStringLiteral("mapView"));
    centreLay->addWidget(m_replay);
    centreLay->addWidget(m_map, 1);
    setCentralWidget(centre);
    setAcceptDrops(true);

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
    connect(m_log, &LogPanel::lineMenuRequested, this, [this](int line, const QPoint& at) {
        QMenu* menu = logMenu(line);
        menu->exec(at);
        menu->deleteLater();
    });
    splitDockWidget(m_recordsDock, m_logDock, Qt::Vertical);
    resizeDocks({m_recordsDock, m_logDock}, {640, 300}, Qt::Vertical);
    resizeDocks({m_promptDock, m_recordsDock}, {330, 360}, Qt::Horizontal);
    resizeDocks({m_handDock}, {250}, Qt::Vertical);

    // Play by e-mail: where the exchange stands; shown for PBEM games.
    m_pbemPanel = new PbemPanel(m_gc, this);
    m_pbemPanel->setObjectName(QStringLiteral("pbemPanel"));
    m_pbemDock = new QDockWidget(QStringLiteral("By E-mail"), this);
    m_pbemDock->setObjectName(QStringLiteral("pbemDock"));
    m_pbemDock->setWidget(m_pbemPanel);
    addDockWidget(Qt::LeftDockWidgetArea, m_pbemDock);
    splitDockWidget(m_promptDock, m_pbemDock, Qt::Vertical);
    m_pbemDock->hide();

    // The computer's decisions and its reasons (model/ai); shown when a seat is the computer's.
    m_reasons = new QListWidget(this);
    m_reasons->setObjectName(QStringLiteral("computerReasons"));
    theme::wrapLines(m_reasons);
    m_reasons->setAlternatingRowColors(true);
    m_computerDock = new QDockWidget(QStringLiteral("Computer"), this);
    m_computerDock->setObjectName(QStringLiteral("computerDock"));
    m_computerDock->setWidget(m_reasons);
    addDockWidget(Qt::RightDockWidgetArea, m_computerDock);
    tabifyDockWidget(m_logDock, m_computerDock);
    m_logDock->raise();
    m_computerDock->hide();

    m_combat = new CombatDialog(m_gc, this);
    m_siege = new SiegeDialog(m_gc, this);
    m_tableResult = new TableResultDialog(m_gc, this);
    m_inspector = new StackInspector(*m_data, this);
    m_cover = new CoverWidget(this);

    m_statusTurn = new QLabel(this);
    m_aiBar = new QProgressBar(this);
    m_aiBar->setObjectName(QStringLiteral("computerProgress"));
    m_aiBar->setRange(0, 100);
    m_aiBar->setMaximumWidth(180);
    m_aiBar->setFormat(QStringLiteral("computer thinking %p%"));
    m_aiBar->hide();
    m_hurry = new QToolButton(this);
    m_hurry->setObjectName(QStringLiteral("hurryComputer"));
    m_hurry->setText(QStringLiteral("Decide now"));
    m_hurry->setToolTip(
        QStringLiteral("Stop the computer's search and play the best move it has found so far"));
    m_hurry->hide();
    m_aiTimer = new QTimer(this);
    m_aiTimer->setInterval(120);
    connect(m_aiTimer, &QTimer::timeout, this,
            [this]() { m_aiBar->setValue(static_cast<int>(m_gc->computerProgress() * 100.0)); });
    connect(m_hurry, &QToolButton::clicked, m_gc, &GameController::hurryComputer);
    connect(m_gc, &GameController::computerThinkingChanged, this, &MainWindow::onComputerThinking);
    statusBar()->addPermanentWidget(m_aiBar);
    statusBar()->addPermanentWidget(m_hurry);
    statusBar()->addPermanentWidget(m_statusTurn);
    statusBar()->addPermanentWidget(
        new QLabel(QStringLiteral("data %1").arg(QString::fromLatin1(m_data->fingerprint.left(12))), this));

    buildMenus();

    connect(m_gc, &GameController::changed, this, &MainWindow::onChanged);
    connect(m_gc, &GameController::actionPlayed, this, [this]() { autosaveNow(); });
    connect(m_gc, &GameController::gameStarted, this, [this]() {
        m_replay->clear();
        autosaveNow();
    });
    connect(m_replay, &ReplayBar::positionChanged, this, &MainWindow::onChanged);
    connect(m_replay, &ReplayBar::closed, this, &MainWindow::onChanged);
    connect(m_pbemPanel, &PbemPanel::exportRequested, this, &MainWindow::exportTurn);
    connect(m_pbemPanel, &PbemPanel::importRequested, this, &MainWindow::importTurn);
    connect(m_pbemPanel, &PbemPanel::stepRequested, this, &MainWindow::stepThroughLastImport);
    connect(m_prompt, &PromptPanel::submitAction, this, &MainWindow::submit);
    connect(m_combat, &CombatDialog::submitAction, this, &MainWindow::submit);
    connect(m_siege, &SiegeDialog::submitAction, this, &MainWindow::submit);
    connect(m_combat, &CombatDialog::exportBattle, this, &MainWindow::showBattleExport);
    connect(m_combat, &CombatDialog::openTableResult, this, &MainWindow::showTableResult);
    connect(m_prompt, &PromptPanel::openTableResult, this, &MainWindow::showTableResult);
    connect(m_tableResult, &TableResultDialog::exportBattle, this, &MainWindow::showBattleExport);
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
    connect(m_hand, &HandPanel::opponentClicked, this, [this] { // the game over: the other hand
        m_endHandSide = 1 - m_handShown;
        updateHand();
    });
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
    QMenu* mail = game->addMenu(QStringLiteral("Play by &E-mail"));
    mail->addAction(QStringLiteral("&New Game by E-mail…"), this, &MainWindow::newPbem);
    mail->addAction(QStringLiteral("&Join a Game (start file)…"), this, &MainWindow::joinPbem);
    mail->addAction(QStringLiteral("&Open a Game by E-mail…"), this, &MainWindow::openPbem);
    mail->addSeparator();
    QAction* imp = mail->addAction(QStringLiteral("&Import Turn…"), this, &MainWindow::importTurn);
    imp->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_I));
    m_exportTurn = mail->addAction(QStringLiteral("&Export Turn…"), this, &MainWindow::exportTurn);
    m_exportTurn->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_E));
    m_exportFinal = mail->addAction(QStringLiteral("Export the &Final File (reveal my secret)…"), this,
                                    &MainWindow::exportFinalTurn);
    m_verifyPbem = mail->addAction(QStringLiteral("&Verify the Whole Game"), this, &MainWindow::verifyPbem);
    game->addSeparator();
    m_stepAction = game->addAction(QStringLiteral("&What Happened Since My Last Turn"), this, [this]() {
        if (!(m_gc->isPbem() ? stepThroughLastImport() : stepThroughSinceLastTurn()))
            statusBar()->showMessage(QStringLiteral("Nothing to step through"), 4000);
    });
    m_stepAction->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_H));
    m_exportBattle = game->addAction(QStringLiteral("Export &Battle…"), this, &MainWindow::showBattleExport);
    m_exportBattle->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_B));
    m_exportPast =
        game->addAction(QStringLiteral("Export a &Past Battle…"), this, &MainWindow::choosePastBattle);
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
    for (QDockWidget* dw : {m_promptDock, m_recordsDock, m_handDock, m_logDock, m_pbemDock, m_computerDock})
        view->addAction(dw->toggleViewAction());

    QMenu* battles = menuBar()->addMenu(QStringLiteral("&Battle")); // issues 10-11: the tactical table
    battles->addAction(QStringLiteral("Open &Tactical Battle…"), this,
                       [this]() { TacticalWindow::openFromMenu(this); });
    battles->addAction(QStringLiteral("Battle &Report…"), this, &MainWindow::showBattleReport);
    QMenu* help = menuBar()->addMenu(QStringLiteral("&Help"));
    QAction* guide = help->addAction(QStringLiteral("&Playing Westphalia"), this, &MainWindow::showGuide);
    guide->setShortcut(QKeySequence::HelpContents);
    help->addAction(QStringLiteral("&About Westphalia"), this, [this]() {
        QMessageBox::about(
            this, QStringLiteral("About Westphalia"),
            QStringLiteral("<h3>Westphalia %1</h3><p>A desktop edition of GMT's <i>Thirty Years War: "
                           "Europe in Agony 1618-1648</i>.</p><p>Game data: %2<br>fingerprint %3</p>")
                .arg(QCoreApplication::applicationVersion(), m_data->dataDir.toHtmlEscaped(),
                     QString::fromLatin1(m_data->fingerprint.left(16))));
    });
    help->addAction(QStringLiteral("&Keys"), this, [this]() {
        QMessageBox::information(
            this, QStringLiteral("Keys"),
            QStringLiteral(
                "<table>"
                "<tr><td><b>Ctrl+N / Ctrl+O / Ctrl+S</b></td><td>new, open, save</td></tr>"
                "<tr><td><b>Ctrl+Z</b></td><td>undo (while the rules allow)</td></tr>"
                "<tr><td><b>Ctrl+I / Ctrl+E</b></td><td>import / export a turn file (by e-mail)</td></tr>"
                "<tr><td><b>Ctrl+H</b></td><td>step through what happened since your last turn</td></tr>"
                "<tr><td><b>← → Home End</b></td><td>while stepping: back, forward, first, the "
                "present</td></tr>"
                "<tr><td><b>Ctrl+B</b></td><td>export the battle about to be fought</td></tr>"
                "<tr><td><b>+ / − / 0</b></td><td>zoom in, out, fit the map</td></tr>"
                "<tr><td><b>F11</b></td><td>full screen</td></tr>"
                "<tr><td><b>F1</b></td><td>how to play in this window</td></tr></table>"));
    });

    QToolBar* tb = addToolBar(QStringLiteral("Game"));
    tb->setObjectName(QStringLiteral("gameToolBar"));
    tb->setMovable(false);
    tb->setToolButtonStyle(Qt::ToolButtonTextOnly);
    tb->addAction(nw);
    tb->addAction(op);
    tb->addAction(m_save);
    tb->addSeparator();
    tb->addAction(imp);
    tb->addAction(m_exportTurn);
    imp->setIconText(QStringLiteral("Import Turn"));
    m_exportTurn->setIconText(QStringLiteral("Export Turn"));
    tb->addSeparator();
    tb->addAction(m_undo);
    tb->addSeparator();
    tb->addAction(zin);
    tb->addAction(zout);
    tb->addAction(fit);
    tb->addSeparator();
    QAction* cards = tb->addAction(QStringLiteral("Cards"), this, &MainWindow::showCardBrowser);
    cards->setToolTip(QStringLiteral("All 110 Strategy cards"));
    nw->setIconText(QStringLiteral("New Game")); // the menu keeps "New Game…" and its Alt+N
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
    m_endHandSide = -1;
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
    m_endHandSide = -1;
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
    for (int side : {0, 1})
        if (setup.seats[side] == SeatKind::Remote) {
            // By e-mail: this copy plays the other side; the start file goes to the remote player.
            const int me = 1 - side;
            const QString stamp = QDateTime::currentDateTimeUtc().toString(QStringLiteral("yyyyMMdd-HHmmss"));
            QString file = QFileDialog::getSaveFileName(
                this, QStringLiteral("Save the start file for your opponent"),
                pbemOutDir() + QStringLiteral("/%1-start.pbem").arg(setup.scenario),
                QStringLiteral("Westphalia e-mail files (*.pbem)"));
            if (file.isEmpty())
                return;
            if (!file.endsWith(QLatin1String(".pbem")))
                file += QStringLiteral(".pbem");
            QSettings().setValue(QStringLiteral("files/pbemDir"), QFileInfo(file).absolutePath());
            newPbemGame(setup.scenario, me, save::DiceMode::Sealed,
                        pbemRoot() + QLatin1Char('/') + stamp + QLatin1Char('-') +
                            (me == kCatholic ? QStringLiteral("catholic") : QStringLiteral("protestant")),
                        file, rules::optionList(setup.options));
            return;
        }
    startGame(setup);
}

bool MainWindow::openFile(const QString& file) {
    QString error;
    m_lastActor = -1;
    m_cover->hide();
    m_replay->clear();
    if (!m_gc->load(file, &error)) {
        QMessageBox::warning(this, QStringLiteral("Cannot open the game"), error);
        return false;
    }
    m_revealed = -1;
    m_endHandSide = -1;
    m_lastActor = -1;
    onChanged();
    stepThroughSinceLastTurn(); // what happened since the last turn of the player to decide, if anything
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

void MainWindow::showGuide() {
    if (!m_guide) {
        m_guide = new QDialog(this);
        m_guide->setObjectName(QStringLiteral("guide"));
        m_guide->setWindowTitle(QStringLiteral("Playing Westphalia"));
        m_guide->resize(640, 720);
        auto* text = new QTextBrowser(m_guide);
        text->setObjectName(QStringLiteral("guideText"));
        QFile f(QStringLiteral(":/help/guide.html"));
        text->setHtml(f.open(QIODevice::ReadOnly) ? QString::fromUtf8(f.readAll())
                                                  : QStringLiteral("The guide is missing from this build."));
        auto* lay = new QVBoxLayout(m_guide);
        lay->addWidget(text);
        auto* close = new QDialogButtonBox(QDialogButtonBox::Close, m_guide);
        connect(close, &QDialogButtonBox::rejected, m_guide, &QDialog::hide);
        lay->addWidget(close);
    }
    m_guide->show();
    m_guide->raise();
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
    if (m_autosave)
        st.setValue(QStringLiteral("session/running"), false); // a clean close: no offer to resume
    st.setValue(QStringLiteral("window/geometry"), saveGeometry());
    st.setValue(QStringLiteral("window/state"), saveState());
    QMainWindow::closeEvent(e);
}

void MainWindow::showTableResult() {
    if (!m_tableResult->refresh())
        return;
    m_tableResult->show();
    m_tableResult->raise();
}

void MainWindow::submit(const Action& a) {
    QString error;
    if (!m_gc->submit(a, &error))
        QMessageBox::warning(this, QStringLiteral("Not allowed"), error);
}

void MainWindow::onLocClicked(int loc) {
    if (inPast())
        return; // the step-through is read-only
    m_prompt->handleLocClick(loc);
}

void MainWindow::onStackClicked(int index) {
    const MapState& s = m_map->state();
    if (index < 0 || index >= s.stacks.size())
        return;
    if (inPast()) {
        m_inspector->showStack(s.stacks[index], &m_replay->state());
        return;
    }
    // A stack standing on a legal target: the click plays it (the stack is in the way of the space).
    if (m_prompt->handleLocClick(s.stacks[index].loc()))
        return;
    m_inspector->showStack(s.stacks[index], m_gc->hasGame() ? &m_gc->state() : nullptr);
}

void MainWindow::updateMap() {
    if (inPast()) {
        m_map->setState(MapState::fromGame(*m_data, m_replay->state())); // no targets: read-only
        return;
    }
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
    // The game over (not by e-mail, where the other's hand is not here): either hand, the other shown on a
    // click on its cards.
    const bool reveal = s.gameOver && !m_gc->isPbem();
    if (reveal && (m_endHandSide == 0 || m_endHandSide == 1))
        side = m_endHandSide;
    const QString note =
        reveal && !m_gc->isHumanHere(side) ? QStringLiteral("the computer's, shown at the end") : QString();
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
    m_hand->setHand(side, cards, static_cast<int>(s.hand[1 - side].size()), handsHidden(), playable, reveal,
                    note);
    m_handShown = side;
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

    const bool past = inPast();
    m_prompt->setHidden(handsHidden() || past); // the past: no choices offered
    m_promptDock->setEnabled(!past);
    updateMap();
    if (past)
        m_records->setState(&m_replay->state(), m_gc->game().engine().actor(m_replay->state()));
    else
        m_records->setState(has ? &m_gc->state() : nullptr, actor);
    updateHand();
    if (has)
        m_log->setLog(m_gc->log(), m_gc->state().firstTurn);
    m_undo->setEnabled(m_gc->canUndo() && !past);
    m_save->setEnabled(has && m_gc->replayable());
    m_saveAs->setEnabled(has && m_gc->replayable());
    const bool pbem = m_gc->isPbem();
    m_exportTurn->setEnabled(pbem && m_gc->pbem()->myBall() && !m_gc->pbem()->canPlay());
    m_exportFinal->setEnabled(pbem && m_gc->pbem()->myBall() && !m_gc->pbem()->iRevealed());
    m_verifyPbem->setEnabled(pbem && m_gc->pbem()->opponentRevealed() && m_gc->pbem()->iRevealed());
    m_pbemPanel->refresh();
    if (pbem)
        showPbemDock();
    const bool computer = m_gc->seat(0) == SeatKind::Computer || m_gc->seat(1) == SeatKind::Computer;
    if (computer && !m_computerDock->isVisible())
        m_computerDock->show();
    if (computer || m_reasons->count()) {
        const QStringList reasons = m_gc->computerReasons();
        if (reasons.size() != m_reasons->count() ||
            (m_reasons->count() && m_reasons->item(m_reasons->count() - 1)->text() != reasons.back())) {
            m_reasons->clear();
            m_reasons->addItems(reasons);
            m_reasons->scrollToBottom();
        }
    }
    m_exportBattle->setEnabled(!past && m_combat->inBattle() && !handsHidden());
    m_exportPast->setEnabled(has && m_gc->replayable() && !pbem);

    // The battle dialog follows the combat on top of the stack; it stays open to show the result.
    const bool wasInBattle = m_combat->inBattle();
    const bool inBattle = m_combat->refresh();
    if (wasInBattle && !inBattle)
        m_battleResultPending = true;
    if (past) {
        m_combat->hide();
    } else if ((inBattle || m_battleResultPending) && !handsHidden()) {
        m_combat->show();
        m_combat->raise();
        m_battleResultPending = false;
    } else if (inBattle) {
        m_combat->hide();
    }
    // Linked battles: the tabletop result dialog opens when the attacker here is to enter the result.
    const bool atTable =
        has && !past && !handsHidden() && m_gc->isHumanHere(actor) && isTableResultDecision(m_gc->legal());
    if (atTable && !m_atTableResult)
        showTableResult();
    else if (!atTable)
        m_tableResult->hide();
    m_atTableResult = atTable;

    if (has) {
        const GameState& s = m_gc->state();
        const Scenario* sc = m_data->scenario(s.scenario);
        setWindowTitle(QStringLiteral("Westphalia — %1, turn %2 (%3)")
                           .arg(sc ? sc->name : s.scenario)
                           .arg(s.turn)
                           .arg(theme::turnYears(s.turn)));
        if (m_gc->isPbem() && !m_gc->legal().size() && !s.gameOver)
            m_statusTurn->setText(QStringLiteral("Turn %1 · VP %2 · %3")
                                      .arg(s.turn)
                                      .arg(s.vp)
                                      .arg(m_gc->pbemMustExport()
                                               ? QStringLiteral("export your turn file")
                                               : QStringLiteral("waiting for your opponent's file")));
        else
            m_statusTurn->setText(QStringLiteral("Turn %1 · %2 · VP %3 · %4 to decide")
                                      .arg(s.turn)
                                      .arg(GameController::phaseName(s))
                                      .arg(s.vp)
                                      .arg(actor >= 0 ? theme::sideName(actor) : QStringLiteral("nobody")));
        if (s.gameOver)
            statusBar()->showMessage(s.result);
    } else if (m_gc->isPbem()) {
        setWindowTitle(
            QStringLiteral("Westphalia — game by e-mail %1 (starting)").arg(m_gc->pbem()->gameId().left(8)));
        m_statusTurn->setText(m_gc->pbemMustExport()
                                  ? QStringLiteral("export your file: the game starts with it")
                                  : QStringLiteral("waiting for your opponent's file"));
    } else {
        m_statusTurn->setText(QStringLiteral("No game"));
    }
}

// ---- the step-through

bool MainWindow::inPast() const {
    return m_replay->inPast() && m_gc->hasGame();
}

bool MainWindow::stepThroughLastImport() {
    if (!m_gc->isPbem() || !m_gc->hasGame() || !m_lastImport.ok || m_lastImport.actions <= 0)
        return false;
    std::vector<GameState> states;
    QStringList texts;
    QString error;
    if (!m_gc->pbem()->stepStates(m_lastImport.fromAction, &states, &texts, &error)) {
        statusBar()->showMessage(QStringLiteral("Cannot step through: %1").arg(error), 6000);
        return false;
    }
    QList<int> sides;
    const Engine& e = m_gc->game().engine();
    for (int k = 0; k < texts.size() && k < static_cast<int>(states.size()); ++k)
        sides << e.actor(states[static_cast<size_t>(k)]);
    m_replay->setSteps(std::move(states), texts, sides, m_lastImport.fromAction,
                       QStringLiteral("What happened since your last file"));
    return true;
}

bool MainWindow::stepThroughSinceLastTurn() {
    if (!m_gc->hasGame() || m_gc->isPbem() || !m_gc->replayable())
        return false;
    const Game& g = m_gc->game();
    const int n = static_cast<int>(g.actions().size());
    const int me = g.actor();
    if (n == 0 || me < 0)
        return false;
    // The positions of the last actions only (a long game holds thousands): enough for a turn.
    const int window = 400;
    save::SaveGame sg = save::fromGame(g);
    save::StepReplay rp;
    QString error;
    if (!rp.open(m_gc->dataPtr(), sg, QStringLiteral("this game"), &error, std::max(0, n - window)))
        return false;
    const Engine& e = g.engine();
    // Walk back over the player's own actions in progress, then over the other side's: the step-through
    // starts with the first of those.
    int p = n - 1;
    auto actorAt = [&](int pos) {
        rp.seek(pos);
        return e.actor(rp.state());
    };
    while (p >= rp.first() && actorAt(p) == me)
        --p;
    if (p < rp.first())
        return false; // nothing by anyone else in sight
    while (p >= rp.first() && actorAt(p) != me)
        --p;
    const int from = p + 1;
    std::vector<GameState> states;
    QStringList texts;
    QList<int> sides;
    for (int k = from; k <= n; ++k) {
        rp.seek(k);
        states.push_back(rp.state());
        if (k > from) {
            texts << rp.actionBefore();
            sides << e.actor(states[states.size() - 2]);
        }
    }
    m_replay->setSteps(
        std::move(states), texts, sides, from,
        QStringLiteral("What happened since the %1 player's last turn").arg(theme::sideName(me)));
    return true;
}

// ---- autosave

QString MainWindow::autosavePath() {
    return QStandardPaths::writableLocation(QStandardPaths::AppDataLocation) +
           QStringLiteral("/autosave.tyw");
}

void MainWindow::setAutosave(bool on) {
    m_autosave = on;
    QSettings().setValue(QStringLiteral("session/running"), on);
    if (on)
        autosaveNow();
}

bool MainWindow::crashedBefore() {
    return QSettings().value(QStringLiteral("session/running"), false).toBool() &&
           QFile::exists(autosavePath());
}

bool MainWindow::resumeAutosave() {
    if (!QFile::exists(autosavePath()))
        return false;
    if (!openFile(autosavePath()))
        return false;
    m_gc->forgetFileName(); // Ctrl+S asks where: the autosave is not the player's file
    statusBar()->showMessage(QStringLiteral("Resumed the game from the autosave"), 6000);
    return true;
}

void MainWindow::autosaveNow() {
    if (!m_autosave || !m_gc->hasGame() || !m_gc->replayable() || m_gc->isPbem())
        return;
    QString error;
    if (!m_gc->autosave(autosavePath(), &error)) {
        if (error != m_autosaveError) // said once, not after every action
            statusBar()->showMessage(QStringLiteral("Autosave failed: %1").arg(error), 8000);
        m_autosaveError = error;
    } else {
        m_autosaveError.clear();
    }
}

// ---- the computer

void MainWindow::onComputerThinking(bool thinking) {
    m_aiBar->setValue(0);
    m_aiBar->setVisible(thinking);
    m_hurry->setVisible(thinking);
    if (thinking)
        m_aiTimer->start();
    else
        m_aiTimer->stop();
    onChanged();
}

// ---- the battle export

BattleExportDialog* MainWindow::battleExport() {
    if (!m_battleExport)
        m_battleExport = new BattleExportDialog(this);
    if (m_gc->hasGame())
        m_battleExport->setBattle(*m_data, m_gc->state(),
                                  battle::defaultBattleSeed(m_gc->game().seed(), m_gc->state()));
    return m_battleExport;
}

std::vector<MainWindow::PastBattle> MainWindow::pastBattles() const {
    std::vector<PastBattle> out;
    if (!m_gc->hasGame())
        return out;
    bool was = false;
    // `from`: the log's size before the action that led here (-1: unknown).
    auto check = [&](const GameState& s, int from, int now) {
        const auto* f = s.frames.empty() ? nullptr : std::get_if<CombatFrame>(&s.frames.back());
        if (f && !was) {
            out.push_back({QStringLiteral("%1. turn %2 (%3): %4 attack at %5")
                               .arg(out.size() + 1)
                               .arg(s.turn)
                               .arg(theme::turnYears(s.turn))
                               .arg(theme::sideName(f->attacker))
                               .arg(f->city >= 0 ? m_data->cities[f->city].name : QString()),
                           s, from, -1});
        } else if (f && f->roll[0] < 0 && f->roll[1] < 0 && !out.empty()) {
            out.back().state = s; // later, before the dice: with the combat cards played
        }
        if (!f && was && !out.empty())
            out.back().logTo = now;
        was = f != nullptr;
    };
    if (m_gc->isPbem()) {
        // This side's view after every resolved action (the combat, its units, leaders and cards played
        // are public); where its lines are in this copy's log is not known.
        std::vector<GameState> states;
        QStringList texts;
        QString error;
        if (!m_gc->pbem()->stepStates(0, &states, &texts, &error))
            return out;
        for (const GameState& s : states)
            check(s, -1, -1);
        return out;
    }
    if (!m_gc->replayable())
        return out;
    const Game& g = m_gc->game();
    Game r(m_data);
    QString error;
    if (!r.start(g.scenario(), g.options(), g.seed(), &error))
        return out;
    check(r.state(), 0, int(r.log().size()));
    for (const QString& a : g.actions()) {
        const int before = int(r.log().size());
        if (!r.play(a).ok)
            break;
        check(r.state(), before, int(r.log().size()));
    }
    if (!out.empty() && out.back().logTo < 0 && out.back().logFrom >= 0)
        out.back().logTo = int(r.log().size()); // still under way
    return out;
}

QMenu* MainWindow::logMenu(int line) {
    auto* menu = new QMenu(this);
    menu->setObjectName(QStringLiteral("logMenu"));
    const std::vector<PastBattle> battles = pastBattles();
    auto offer = [&](const PastBattle& b, const QString& text) {
        QAction* a = menu->addAction(text);
        connect(a, &QAction::triggered, this, [this, b]() { exportPastBattle(b); });
    };
    for (const PastBattle& b : battles)
        if (line >= 0 && b.logFrom >= 0 && line >= b.logFrom && line < b.logTo)
            offer(b, QStringLiteral("Export battle %1…").arg(b.label));
    if (menu->isEmpty() && m_gc->isPbem()) // the log of a PBEM copy does not tell where each battle is
        for (const PastBattle& b : battles)
            offer(b, QStringLiteral("Export battle %1…").arg(b.label));
    if (menu->isEmpty())
        menu->addAction(battles.empty()
                            ? QStringLiteral("No battle has been fought yet")
                            : QStringLiteral("Not a battle's line (right-click one to export it)"))
            ->setEnabled(false);
    return menu;
}

BattleExportDialog* MainWindow::exportPastBattle(const PastBattle& b) {
    if (!m_battleExport)
        m_battleExport = new BattleExportDialog(this);
    m_battleExport->setBattle(*m_data, b.state, battle::defaultBattleSeed(m_gc->game().seed(), b.state));
    m_battleExport->show();
    m_battleExport->raise();
    return m_battleExport;
}

void MainWindow::choosePastBattle() {
    const std::vector<PastBattle> battles = pastBattles();
    if (battles.empty()) {
        QMessageBox::information(this, QStringLiteral("Export a past battle"),
                                 m_gc->replayable() || m_gc->isPbem()
                                     ? QStringLiteral("No battle has been fought in this game yet.")
                                     : QStringLiteral("Past battles can be exported from games that can be "
                                                      "replayed from their start (not from a constructed "
                                                      "position)."));
        return;
    }
    QStringList labels;
    for (const PastBattle& b : battles)
        labels << b.label;
    bool ok = false;
    const QString pick = QInputDialog::getItem(this, QStringLiteral("Export a past battle"),
                                               QStringLiteral("The battles of this game:"), labels,
                                               static_cast<int>(labels.size()) - 1, false, &ok);
    if (ok)
        exportPastBattle(battles[static_cast<size_t>(labels.indexOf(pick))]);
}

BattleReportDialog* MainWindow::showBattleReport() {
    if (!m_battleReport)
        m_battleReport = new BattleReportDialog(m_gc, this);
    m_battleReport->refresh();
    m_battleReport->show();
    m_battleReport->raise();
    return m_battleReport;
}

void MainWindow::showBattleExport() {
    BattleExportDialog* d = battleExport();
    d->show();
    d->raise();
}

// ---- play by e-mail

void MainWindow::showPbemDock() {
    if (m_pbemDock->isVisible())
        return;
    m_pbemDock->show();
    resizeDocks({m_promptDock, m_pbemDock}, {380, 520}, Qt::Vertical);
}

QString MainWindow::pbemRoot() {
    return QStandardPaths::writableLocation(QStandardPaths::AppDataLocation) + QStringLiteral("/pbem");
}

QString MainWindow::pbemOutDir() const {
    return QSettings()
        .value(QStringLiteral("files/pbemDir"),
               QStandardPaths::writableLocation(QStandardPaths::DocumentsLocation))
        .toString();
}

namespace {

bool writeBytes(const QString& path, const QByteArray& bytes, QString* error) {
    QDir().mkpath(QFileInfo(path).absolutePath());
    QSaveFile f(path);
    if (!f.open(QIODevice::WriteOnly) || f.write(bytes) != bytes.size() || !f.commit()) {
        *error = QStringLiteral("%1: cannot write: %2").arg(path, f.errorString());
        return false;
    }
    return true;
}

// The header of a PBEM file: its game, sequence number and author, or an empty object.
QJsonObject pbemHeader(const QByteArray& bytes) {
    QByteArray raw;
    QString why;
    if (!save::gzipDecompress(bytes, &raw, &why))
        return {};
    const QJsonObject o = QJsonDocument::fromJson(raw).object();
    if (o.value(QStringLiteral("format")).toString() != QLatin1String("westphalia-pbem"))
        return {};
    return o;
}

} // namespace

bool MainWindow::newPbemGame(const QString& scenario, int side, save::DiceMode dice, const QString& dir,
                             const QString& startFileOut, const QStringList& options) {
    QByteArray start;
    QString error;
    m_replay->clear();
    m_cover->hide();
    m_combat->hide();
    m_lastActor = -1;
    m_lastImport = {};
    if (!m_gc->newPbem(scenario, options, side, dice, dir, &start, &error) ||
        !writeBytes(dir + QStringLiteral("/outbox/") + QFileInfo(startFileOut).fileName(), start, &error) ||
        !writeBytes(startFileOut, start, &error)) {
        QMessageBox::warning(this, QStringLiteral("Cannot create the game by e-mail"), error);
        return false;
    }
    m_revealed = side;
    m_pbemPanel->showMessage(
        QStringLiteral("<p>The start file <b>%1</b> is written. Send it to your opponent; "
                       "import his answer when it comes.</p>")
            .arg(startFileOut.toHtmlEscaped()));
    showPbemDock();
    m_pbemDock->raise();
    onChanged();
    return true;
}

bool MainWindow::joinPbemGame(const QString& startFile, const QString& dir, const QString& joinFileOut) {
    QFile f(startFile);
    QString error;
    if (!f.open(QIODevice::ReadOnly)) {
        QMessageBox::warning(this, QStringLiteral("Cannot join the game"),
                             QStringLiteral("%1: cannot read: %2").arg(startFile, f.errorString()));
        return false;
    }
    QByteArray answer;
    m_replay->clear();
    m_cover->hide();
    m_combat->hide();
    m_lastActor = -1;
    m_lastImport = {};
    if (!m_gc->joinPbem(f.readAll(), QFileInfo(startFile).fileName(), dir, &answer, &error) ||
        !writeBytes(dir + QStringLiteral("/outbox/") + QFileInfo(joinFileOut).fileName(), answer, &error) ||
        !writeBytes(joinFileOut, answer, &error)) {
        QMessageBox::warning(this, QStringLiteral("Cannot join the game"), error);
        return false;
    }
    m_revealed = m_gc->pbem()->mySide();
    m_pbemPanel->showMessage(
        QStringLiteral("<p>You joined. Send <b>%1</b> to your opponent; his first turn file "
                       "starts the game.</p>")
            .arg(joinFileOut.toHtmlEscaped()));
    showPbemDock();
    m_pbemDock->raise();
    onChanged();
    return true;
}

bool MainWindow::openPbemGame(const QString& dir) {
    QString error;
    m_replay->clear();
    m_cover->hide();
    m_combat->hide();
    m_lastActor = -1;
    m_lastImport = {};
    if (!m_gc->openPbem(dir, &error)) {
        QMessageBox::warning(this, QStringLiteral("Cannot open the game by e-mail"), error);
        return false;
    }
    m_revealed = m_gc->pbem()->mySide();
    m_pbemPanel->showMessage({});
    showPbemDock();
    onChanged();
    // What happened since this side's last file: the opponent's last file, stepped through.
    const save::PbemSession* ps = m_gc->pbem();
    const QString mine =
        ps->mySide() == kCatholic ? QStringLiteral("catholic") : QStringLiteral("protestant");
    const auto& files = ps->files();
    for (auto it = files.rbegin(); it != files.rend() && ps->started(); ++it) {
        if (it->value(QStringLiteral("from")).toString() == mine ||
            it->value(QStringLiteral("actions")).toArray().isEmpty())
            continue; // this side's own, or an empty answer
        const int from = it->value(QStringLiteral("fromAction")).toInt(-1);
        const int resolved = static_cast<int>(ps->allActions().size());
        if (from >= 0 && from < resolved) {
            m_lastImport = {};
            m_lastImport.ok = true;
            m_lastImport.file = QStringLiteral("file %1").arg(it->value(QStringLiteral("seq")).toInt());
            m_lastImport.seq = it->value(QStringLiteral("seq")).toInt();
            m_lastImport.fromSide = 1 - ps->mySide();
            m_lastImport.fromAction = from;
            m_lastImport.actions = resolved - from;
            stepThroughLastImport();
        }
        break;
    }
    return true;
}

QString MainWindow::findPbemSession(const QString& gameId) const {
    if (m_gc->isPbem() && m_gc->pbem()->gameId() == gameId)
        return m_gc->pbemDir();
    const QDir root(pbemRoot());
    for (const QString& sub : root.entryList(QDir::Dirs | QDir::NoDotAndDotDot)) {
        QFile f(root.filePath(sub) + QStringLiteral("/session.json"));
        if (!f.open(QIODevice::ReadOnly))
            continue;
        const QByteArray text = f.readAll();
        if (text.contains(gameId.toLatin1())) {
            save::PbemSession probe(m_data);
            QString why;
            if (probe.loadFrom(root.filePath(sub), &why) && probe.gameId() == gameId)
                return root.filePath(sub);
        }
    }
    return {};
}

TurnImport MainWindow::importTurnFile(const QString& file) {
    TurnImport r;
    r.file = QFileInfo(file).fileName();
    QFile f(file);
    if (!f.open(QIODevice::ReadOnly)) {
        r.error = QStringLiteral("%1: cannot read: %2").arg(file, f.errorString());
        showImportOutcome(r);
        return r;
    }
    const QByteArray bytes = f.readAll();
    const QJsonObject head = pbemHeader(bytes);
    const QString game = head.value(QStringLiteral("game")).toString();
    // The file's own game: the session open now, or another one kept under pbemRoot().
    if (!game.isEmpty() && (!m_gc->isPbem() || m_gc->pbem()->gameId() != game)) {
        const QString dir = findPbemSession(game);
        if (!dir.isEmpty()) {
            if (!openPbemGame(dir))
                return r;
        } else if (head.value(QStringLiteral("seq")).toInt() == 1) {
            r.error = QStringLiteral("This is the start file of a game that is not on this computer: join it "
                                     "with Game ▸ Play by E-mail ▸ Join a Game.");
            showImportOutcome(r);
            return r;
        } else {
            r.error =
                QStringLiteral("This file belongs to game %1, which is not on this computer (no session "
                               "under %2).")
                    .arg(game.left(8), pbemRoot());
            showImportOutcome(r);
            return r;
        }
    }
    if (!m_gc->isPbem()) {
        r.error = head.isEmpty() ? QStringLiteral("%1 is not a Westphalia play-by-e-mail file (not gzip of "
                                                  "a 'westphalia-pbem' JSON object).")
                                       .arg(r.file)
                                 : QStringLiteral("No game by e-mail is open.");
        showImportOutcome(r);
        return r;
    }
    m_replay->clear();
    r = m_gc->importTurn(bytes, r.file);
    showImportOutcome(r);
    if (r.ok && r.actions > 0)
        stepThroughLastImport();
    return r;
}

void MainWindow::showImportOutcome(const TurnImport& r) {
    m_lastImport = r;
    m_pbemPanel->showImport(r);
    showPbemDock();
    m_pbemDock->raise();
    if (r.ok) {
        statusBar()->showMessage(
            QStringLiteral("Verified and imported %1: %2 action(s)").arg(r.file).arg(r.actions), 8000);
        return;
    }
    statusBar()->showMessage(QStringLiteral("Refused %1").arg(r.file), 8000);
    // Said clearly, without stopping anything: a window that stays until read.
    auto* box = new QMessageBox(QMessageBox::Warning, QStringLiteral("Turn file refused"),
                                QStringLiteral("%1 was not imported.\n\n%2").arg(r.file, r.error),
                                QMessageBox::Ok, this);
    box->setObjectName(QStringLiteral("importRefused"));
    box->setAttribute(Qt::WA_DeleteOnClose);
    box->open();
}

bool MainWindow::exportTurnTo(const QString& file, bool reveal) {
    QByteArray bytes;
    QString name, error;
    if (!m_gc->exportTurn(&bytes, &name, reveal, &error)) {
        QMessageBox::warning(this, QStringLiteral("Cannot export the turn"), error);
        return false;
    }
    // The session's own copy first (never lost), then where the player asked.
    if (!writeBytes(m_gc->pbemDir() + QStringLiteral("/outbox/") + name, bytes, &error) ||
        !writeBytes(file, bytes, &error)) {
        QMessageBox::warning(this, QStringLiteral("Cannot write the turn file"),
                             QStringLiteral("%1\n\nA copy is in %2/outbox.").arg(error, m_gc->pbemDir()));
        return false;
    }
    m_pbemPanel->showMessage(
        QStringLiteral("<p>Wrote <b>%1</b>. Send it to your opponent.</p>").arg(file.toHtmlEscaped()));
    statusBar()->showMessage(QStringLiteral("Wrote %1").arg(file), 8000);
    onChanged();
    return true;
}

void MainWindow::newPbem() {
    NewPbemDialog dlg(*m_data, this);
    if (dlg.exec() != QDialog::Accepted)
        return;
    const QString stamp = QDateTime::currentDateTimeUtc().toString(QStringLiteral("yyyyMMdd-HHmmss"));
    const QString dir = pbemRoot() + QLatin1Char('/') + stamp + QLatin1Char('-') +
                        (dlg.side() == 0 ? "catholic" : "protestant");
    QString file =
        QFileDialog::getSaveFileName(this, QStringLiteral("Save the start file for your opponent"),
                                     pbemOutDir() + QStringLiteral("/%1-start.pbem").arg(dlg.scenario()),
                                     QStringLiteral("Westphalia e-mail files (*.pbem)"));
    if (file.isEmpty())
        return;
    if (!file.endsWith(QLatin1String(".pbem")))
        file += QStringLiteral(".pbem");
    QSettings().setValue(QStringLiteral("files/pbemDir"), QFileInfo(file).absolutePath());
    newPbemGame(dlg.scenario(), dlg.side(), dlg.dice(), dir, file);
}

void MainWindow::joinPbem() {
    const QString start =
        QFileDialog::getOpenFileName(this, QStringLiteral("The start file your opponent sent"), pbemOutDir(),
                                     QStringLiteral("Westphalia e-mail files (*.pbem);;All files (*)"));
    if (start.isEmpty())
        return;
    QSettings().setValue(QStringLiteral("files/pbemDir"), QFileInfo(start).absolutePath());
    QFile f(start);
    QJsonObject head;
    if (f.open(QIODevice::ReadOnly))
        head = pbemHeader(f.readAll());
    const QString game = head.value(QStringLiteral("game")).toString().left(8);
    const QString dir = pbemRoot() + QLatin1Char('/') + (game.isEmpty() ? QStringLiteral("game") : game) +
                        QStringLiteral("-joined");
    QString file = QFileDialog::getSaveFileName(this, QStringLiteral("Save your answer for your opponent"),
                                                pbemOutDir() + QStringLiteral("/%1-join-s2.pbem").arg(game),
                                                QStringLiteral("Westphalia e-mail files (*.pbem)"));
    if (file.isEmpty())
        return;
    if (!file.endsWith(QLatin1String(".pbem")))
        file += QStringLiteral(".pbem");
    joinPbemGame(start, dir, file);
}

void MainWindow::openPbem() {
    const QString dir =
        QFileDialog::getExistingDirectory(this, QStringLiteral("The game's session directory"), pbemRoot());
    if (!dir.isEmpty())
        openPbemGame(dir);
}

void MainWindow::importTurn() {
    const QString file =
        QFileDialog::getOpenFileName(this, QStringLiteral("Import your opponent's file"), pbemOutDir(),
                                     QStringLiteral("Westphalia e-mail files (*.pbem);;All files (*)"));
    if (file.isEmpty())
        return;
    QSettings().setValue(QStringLiteral("files/pbemDir"), QFileInfo(file).absolutePath());
    importTurnFile(file);
}

void MainWindow::exportTurn() {
    if (!m_gc->isPbem())
        return;
    QString file =
        QFileDialog::getSaveFileName(this, QStringLiteral("Export your turn file"),
                                     pbemOutDir() + QLatin1Char('/') + m_gc->pbem()->nextFileName(),
                                     QStringLiteral("Westphalia e-mail files (*.pbem)"));
    if (file.isEmpty())
        return;
    if (!file.endsWith(QLatin1String(".pbem")))
        file += QStringLiteral(".pbem");
    QSettings().setValue(QStringLiteral("files/pbemDir"), QFileInfo(file).absolutePath());
    exportTurnTo(file, false);
}

void MainWindow::exportFinalTurn() {
    if (!m_gc->isPbem())
        return;
    if (!m_gc->state().gameOver &&
        QMessageBox::question(
            this, QStringLiteral("End the game by agreement?"),
            QStringLiteral("The game is not over. Revealing your secret shows your opponent "
                           "your hand and your draw pile, and ends the game by agreement. "
                           "Reveal it?")) != QMessageBox::Yes)
        return;
    QString file =
        QFileDialog::getSaveFileName(this, QStringLiteral("Export your final file"),
                                     pbemOutDir() + QLatin1Char('/') + m_gc->pbem()->nextFileName(),
                                     QStringLiteral("Westphalia e-mail files (*.pbem)"));
    if (file.isEmpty())
        return;
    if (!file.endsWith(QLatin1String(".pbem")))
        file += QStringLiteral(".pbem");
    exportTurnTo(file, true);
}

void MainWindow::verifyPbem() {
    if (!m_gc->isPbem())
        return;
    QString report;
    const bool ok = m_gc->pbem()->verifyGame(&report);
    auto* box = new QMessageBox(
        ok ? QMessageBox::Information : QMessageBox::Warning,
        ok ? QStringLiteral("The whole game is verified") : QStringLiteral("The game does not verify"),
        ok ? QStringLiteral("Every action was replayed with both players' true hands and draw piles.")
           : QStringLiteral("A problem was found: see the report."),
        QMessageBox::Ok, this);
    box->setObjectName(ok ? QStringLiteral("verifyOk") : QStringLiteral("verifyFailed"));
    box->setDetailedText(report);
    box->setInformativeText(report.left(600));
    box->setAttribute(Qt::WA_DeleteOnClose);
    box->open();
}

bool MainWindow::openAny(const QString& file) {
    if (file.endsWith(QLatin1String(".pbem"), Qt::CaseInsensitive))
        return importTurnFile(file).ok;
    return openFile(file);
}

void MainWindow::dragEnterEvent(QDragEnterEvent* e) {
    for (const QUrl& u : e->mimeData()->urls()) {
        const QString f = u.toLocalFile();
        if (f.endsWith(QLatin1String(".pbem"), Qt::CaseInsensitive) ||
            f.endsWith(QLatin1String(".tyw"), Qt::CaseInsensitive)) {
            e->acceptProposedAction();
            return;
        }
    }
}

void MainWindow::dropEvent(QDropEvent* e) {
    for (const QUrl& u : e->mimeData()->urls()) {
        const QString f = u.toLocalFile();
        if (!f.isEmpty()) {
            e->acceptProposedAction();
            // after the drop returns: the import may open windows
            QTimer::singleShot(0, this, [this, f]() { openAny(f); });
            return;
        }
    }
}

} // namespace wp
