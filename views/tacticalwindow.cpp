#include "tacticalwindow.h"

#include "tactical/sidewords.h"
#include "tacticalview.h"
#include "theme.h"

#include <QApplication>
#include <QCheckBox>
#include <QCloseEvent>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QDockWidget>
#include <QDoubleSpinBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QMenuBar>
#include <QMessageBox>
#include <QPalette>
#include <QPushButton>
#include <QRandomGenerator>
#include <QRegularExpression>
#include <QScrollArea>
#include <QSpinBox>
#include <QStatusBar>
#include <QStyledItemDelegate>
#include <QTimer>
#include <QVBoxLayout>

#include <cstdio>

namespace wp {

using namespace wp::tactical;

// ---- the hand-dice dialog ---------------------------------------------------------------------------------

TacticalDiceDialog::TacticalDiceDialog(int count, const QString& action, const QStringList& context,
                                       QWidget* parent)
    : QDialog(parent) {
    setObjectName(QStringLiteral("tacticalDiceDialog"));
    setWindowTitle(QStringLiteral("Dice rolled by hand"));
    auto* lay = new QVBoxLayout(this);
    auto* head = new QLabel(QStringLiteral("<b>%1</b> needs %2 more %3. Roll them on the table and enter "
                                           "them in the order the rules use them:")
                                .arg(action.toHtmlEscaped())
                                .arg(count)
                                .arg(count == 1 ? QStringLiteral("die") : QStringLiteral("dice")));
    head->setWordWrap(true);
    lay->addWidget(head);
    if (!context.isEmpty()) {
        auto* ctx = new QLabel(QStringLiteral("<i>What the dice are for (the log the action writes; the "
                                              "values are yours):</i><br>") +
                               context.mid(0, 8)
                                   .join(QStringLiteral("<br>"))
                                   .toHtmlEscaped()
                                   .replace(QStringLiteral("&lt;br&gt;"), QStringLiteral("<br>")));
        ctx->setWordWrap(true);
        ctx->setTextFormat(Qt::RichText);
        lay->addWidget(ctx);
    }
    auto* row = new QHBoxLayout;
    for (int i = 0; i < count; ++i) {
        auto* b = new QSpinBox;
        b->setRange(1, 6);
        b->setValue(1);
        b->setObjectName(QStringLiteral("die%1").arg(i));
        row->addWidget(b);
        m_boxes << b;
    }
    row->addStretch();
    lay->addLayout(row);
    auto* bb = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel);
    connect(bb, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(bb, &QDialogButtonBox::rejected, this, &QDialog::reject);
    lay->addWidget(bb);
}

QList<int> TacticalDiceDialog::dice() const {
    QList<int> d;
    for (QSpinBox* b : m_boxes)
        d << b->value();
    return d;
}

// ---- the window -------------------------------------------------------------------------------------------

TacticalWindow::TacticalWindow(QWidget* parent) : QMainWindow(parent) {
    setObjectName(QStringLiteral("tacticalWindow"));
    setAttribute(Qt::WA_DeleteOnClose, false);
    buildUi();
    resize(1500, 950);
    refresh();
}

namespace {

// The action list's rows: the text wrapped at words to the list's width (a long action in words takes a
// second line rather than running out of the panel), the notation in brackets kept whole.
class WrappingDelegate : public QStyledItemDelegate {
  public:
    explicit WrappingDelegate(QListWidget* list) : QStyledItemDelegate(list), m_list(list) {}
    QSize sizeHint(const QStyleOptionViewItem& option, const QModelIndex& index) const override {
        QStyleOptionViewItem o(option);
        initStyleOption(&o, index);
        const int margin = 2 * (m_list->style()->pixelMetric(QStyle::PM_FocusFrameHMargin, &o, m_list) + 1);
        const int width = std::max(40, m_list->viewport()->width() - 2);
        const QRect text =
            o.fontMetrics.boundingRect(QRect(0, 0, width - margin - 4, 100000), Qt::TextWordWrap, o.text);
        return {width, std::max(QStyledItemDelegate::sizeHint(option, index).height(), text.height() + 4)};
    }

  protected:
    // The notation after the words ("   [move B3 wheel 20 2.5]") is kept on one line: its spaces do not
    // break.
    void initStyleOption(QStyleOptionViewItem* option, const QModelIndex& index) const override {
        QStyledItemDelegate::initStyleOption(option, index);
        const qsizetype at = option->text.lastIndexOf(QLatin1String("   ["));
        if (at >= 0)
            option->text = option->text.left(at + 4) +
                           option->text.mid(at + 4).replace(QLatin1Char(' '), QChar(QChar::Nbsp));
    }

  private:
    QListWidget* m_list;
};

} // namespace

TacticalWindow::~TacticalWindow() = default;

void TacticalWindow::buildUi() {
    m_view = new TacticalView(this);
    setCentralWidget(m_view);

    auto* panel = new QWidget;
    auto* lay = new QVBoxLayout(panel);
    m_header = new QLabel;
    m_header->setWordWrap(true);
    m_header->setFont(theme::serif(12, true));
    m_turn = new QLabel;
    m_turn->setWordWrap(true);
    m_prompt = new QLabel;
    m_prompt->setObjectName(QStringLiteral("tacticalPrompt"));
    m_prompt->setWordWrap(true);
    m_prompt->setTextFormat(Qt::RichText);
    m_prompt->setMinimumHeight(44);
    m_unitInfo = new QLabel;
    m_unitInfo->setWordWrap(true);
    m_unitInfo->setTextFormat(Qt::PlainText);
    lay->addWidget(m_header);
    lay->addWidget(m_turn);
    auto* computerRow = new QHBoxLayout;
    computerRow->addWidget(new QLabel(QStringLiteral("Computer plays:")));
    m_computerBox = new QComboBox;
    m_computerBox->setObjectName(QStringLiteral("tacticalComputer"));
    m_computerBox->setToolTip(QStringLiteral(
        "The computer plays that side's decisions by itself (TVBD: the tactical AI; Tercios: its "
        "simple policy), one action at a time; its moves are recorded in a saved battle"));
    for (int mask = 0; mask < 4; ++mask)
        m_computerBox->addItem(QString(), mask); // bit 0: side A, bit 1: side B (names: updateComputerBox)
    m_computerBox->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon); // long names
    m_computerBox->setMinimumContentsLength(16);
    computerRow->addWidget(m_computerBox, 1);
    lay->addLayout(computerRow);
    lay->addWidget(m_prompt);
    lay->addWidget(m_unitInfo);

    auto* listHead = new QHBoxLayout;
    listHead->addWidget(new QLabel(QStringLiteral("<b>Legal actions</b> (double-click or Apply)")));
    listHead->addStretch();
    m_allBtn = new QPushButton(QStringLiteral("All units"));
    m_allBtn->setToolTip(QStringLiteral("Clear the selection and list every legal action"));
    listHead->addWidget(m_allBtn);
    lay->addLayout(listHead);
    m_actionList = new QListWidget;
    m_actionList->setObjectName(QStringLiteral("tacticalActions"));
    m_actionList->setMinimumHeight(180);
    // Each action in words, then its notation: a long one wraps onto a second line rather than running out
    // of the panel.
    theme::wrapLines(m_actionList);
    m_actionList->setTextElideMode(Qt::ElideNone);
    m_actionList->setItemDelegate(new WrappingDelegate(m_actionList));
    lay->addWidget(m_actionList, 2);
    m_odds = new QLabel;
    m_odds->setObjectName(QStringLiteral("tacticalOdds"));
    m_odds->setWordWrap(true);
    m_odds->setMinimumHeight(36);
    lay->addWidget(m_odds);

    auto* buttons = new QHBoxLayout;
    m_applyBtn = new QPushButton(QStringLiteral("&Apply"));
    m_undoBtn = new QPushButton(QStringLiteral("&Undo"));
    m_autoBtn = new QPushButton(QStringLiteral("Auto-resolve the &rest"));
    m_autoBtn->setToolTip(
        QStringLiteral("Both sides played by the computer to the end (TVBD: the tactical AI; "
                       "Tercios: its simple policy)"));
    buttons->addWidget(m_applyBtn);
    buttons->addWidget(m_undoBtn);
    buttons->addWidget(m_autoBtn);
    lay->addLayout(buttons);

    auto* resultBox = new QGroupBox(QStringLiteral("Dice and results of the last action"));
    auto* rl = new QVBoxLayout(resultBox);
    m_result = new QLabel(QStringLiteral("—"));
    m_result->setObjectName(QStringLiteral("tacticalResult"));
    m_result->setWordWrap(true);
    m_result->setTextFormat(Qt::RichText);
    m_result->setTextInteractionFlags(Qt::TextSelectableByMouse);
    rl->addWidget(m_result);
    lay->addWidget(resultBox, 1);

    // Assist mode: what happened on the real table.
    auto* assist = new QGroupBox(QStringLiteral("Assist mode — the app as referee"));
    auto* al = new QVBoxLayout(assist);
    auto* entryRow = new QHBoxLayout;
    m_entry = new QLineEdit;
    m_entry->setObjectName(QStringLiteral("tacticalEntry"));
    m_entry->setPlaceholderText(QStringLiteral("any action, e.g. move B3 wheel 20 2.5"));
    m_entry->setToolTip(QStringLiteral(
        "An action in the engine's notation. Moves may be any the rules allow (as measured on the table), "
        "not only the listed ones."));
    auto* entryBtn = new QPushButton(QStringLiteral("Enter"));
    entryRow->addWidget(m_entry, 1);
    entryRow->addWidget(entryBtn);
    al->addLayout(entryRow);
    m_measured = new QGroupBox(QStringLiteral("Move the selected unit as measured"));
    auto* ml = new QHBoxLayout(m_measured);
    m_moveKind = new QComboBox;
    for (const char* k : {"fwd", "wheel", "oblique", "back", "aboutface", "turn", "side", "pivot"})
        m_moveKind->addItem(QLatin1String(k));
    m_moveAngle = new QDoubleSpinBox;
    m_moveAngle->setRange(-180, 180);
    m_moveAngle->setSuffix(QStringLiteral("°"));
    m_moveAngle->setToolTip(QStringLiteral("Degrees, positive = to the left (turn/side: sign only)"));
    m_moveDist = new QDoubleSpinBox;
    m_moveDist->setRange(0, 60);
    m_moveDist->setDecimals(2);
    m_moveDist->setSingleStep(0.5);
    m_moveDist->setValue(2);
    auto* mvBtn = new QPushButton(QStringLiteral("Move"));
    ml->addWidget(m_moveKind);
    ml->addWidget(m_moveAngle);
    ml->addWidget(m_moveDist);
    ml->addWidget(mvBtn);
    al->addWidget(m_measured);
    auto* shiftHint =
        new QLabel(QStringLiteral("Drag the selected unit to move it: its ghost shows the move, gold "
                                  "when legal, red with the reason when not. TVBD: the straight move, "
                                  "oblique, wheel or sidestep ending nearest, stopped at the allowance; "
                                  "an unlimbered Cannon pivots to face the drag; a Commander goes where "
                                  "dropped, or attaches to the unit he is dropped on. Tercios: where "
                                  "dropped. Shift+click on the table moves the unit there. In the TVBD "
                                  "deployment (10.6) Shift+click deploys the unit of the chosen action "
                                  "there."));
    shiftHint->setWordWrap(true);
    al->addWidget(shiftHint);
    m_handDice = new QCheckBox(QStringLiteral("Dice rolled by hand (the app asks for the ones it needs)"));
    m_handDice->setObjectName(QStringLiteral("tacticalHandDice"));
    al->addWidget(m_handDice);
    auto* diceRow = new QHBoxLayout;
    diceRow->addWidget(new QLabel(QStringLiteral("Dice for the next action:")));
    m_diceEntry = new QLineEdit;
    m_diceEntry->setObjectName(QStringLiteral("tacticalDice"));
    m_diceEntry->setPlaceholderText(QStringLiteral("e.g. 6 3 5 (asked for when short)"));
    diceRow->addWidget(m_diceEntry, 1);
    al->addLayout(diceRow);
    lay->addWidget(assist);

    auto* scroll = new QScrollArea;
    scroll->setWidget(panel);
    scroll->setWidgetResizable(true);
    auto* dock = new QDockWidget(QStringLiteral("Orders"), this);
    dock->setObjectName(QStringLiteral("tacticalOrdersDock"));
    dock->setWidget(scroll);
    dock->setMinimumWidth(430);
    addDockWidget(Qt::RightDockWidgetArea, dock);

    m_log = new QListWidget;
    m_log->setObjectName(QStringLiteral("tacticalLog"));
    m_log->setFont(theme::sans(8.5));
    auto* logDock = new QDockWidget(QStringLiteral("Battle log"), this);
    logDock->setObjectName(QStringLiteral("tacticalLogDock"));
    logDock->setWidget(m_log);
    addDockWidget(Qt::BottomDockWidgetArea, logDock);
    resizeDocks({logDock}, {170}, Qt::Vertical);

    QMenu* battle = menuBar()->addMenu(QStringLiteral("&Battle"));
    battle->addAction(QStringLiteral("&Open Tactical Battle…"), QKeySequence::Open, this,
                      &TacticalWindow::openDialog);
    battle->addAction(QStringLiteral("&Save Battle…"), QKeySequence::Save, this, &TacticalWindow::saveDialog);
    m_hotseatAction = battle->addAction(QStringLiteral("&Hotseat: Cover the Table Between the Players"));
    m_hotseatAction->setCheckable(true);
    m_hotseatAction->setToolTip(
        QStringLiteral("Tercios order cards are secret: the table is covered when the side "
                       "to act changes"));
    connect(m_hotseatAction, &QAction::toggled, this, [this](bool on) { setHotseat(on); });
    battle->addSeparator();
    battle->addAction(QStringLiteral("&Close"), this, &QWidget::close);
    QMenu* view = menuBar()->addMenu(QStringLiteral("&View"));
    view->addAction(QStringLiteral("Zoom &In"), QKeySequence::ZoomIn, m_view, &TacticalView::zoomIn);
    view->addAction(QStringLiteral("Zoom &Out"), QKeySequence::ZoomOut, m_view, &TacticalView::zoomOut);
    view->addAction(QStringLiteral("&Fit the Table"), QKeySequence(Qt::CTRL | Qt::Key_0), m_view,
                    &TacticalView::fitTable);
    view->addSeparator();
    view->addAction(dock->toggleViewAction());
    view->addAction(logDock->toggleViewAction());

    // The hotseat cover, over the whole window.
    m_cover = new QWidget(this);
    m_cover->setObjectName(QStringLiteral("tacticalCover"));
    m_cover->setAutoFillBackground(true);
    QPalette pal = m_cover->palette();
    pal.setColor(QPalette::Window, QColor(0x2a, 0x20, 0x16));
    m_cover->setPalette(pal);
    auto* cl = new QVBoxLayout(m_cover);
    cl->addStretch(2);
    m_coverText = new QLabel;
    m_coverText->setAlignment(Qt::AlignCenter);
    m_coverText->setWordWrap(true);
    m_coverText->setFont(theme::serif(20, true));
    m_coverText->setStyleSheet(QStringLiteral("QLabel { color: #f4ecd8; }"));
    cl->addWidget(m_coverText);
    m_coverBtn = new QPushButton;
    m_coverBtn->setObjectName(QStringLiteral("tacticalCoverContinue"));
    m_coverBtn->setMinimumHeight(40);
    auto* cr = new QHBoxLayout;
    cr->addStretch();
    cr->addWidget(m_coverBtn);
    cr->addStretch();
    cl->addLayout(cr);
    cl->addStretch(3);
    m_cover->hide();
    connect(m_coverBtn, &QPushButton::clicked, this, [this]() {
        m_shownSide = m_session ? m_session->actor() : -1;
        m_cover->hide();
    });

    connect(m_view, &TacticalView::unitClicked, this, &TacticalWindow::selectUnit);
    connect(m_view, &TacticalView::actionClicked, this, [this](const QString& t) { submit(t); });
    connect(m_view, &TacticalView::tableClicked, this, &TacticalWindow::tableClicked);
    connect(m_view, &TacticalView::unitDragged, this, [this](int unit, Vec2 delta) {
        if (!m_session)
            return;
        const QString t = m_session->dragMove(unit, delta).text;
        if (!t.isEmpty())
            submit(t); // the engine checks it: a drag out of the legal region is refused with the rule
    });
    connect(m_actionList, &QListWidget::currentRowChanged, this, [this](int row) {
        QListWidgetItem* it = m_actionList->item(row);
        const int i = it ? it->data(Qt::UserRole + 1).toInt() : -1;
        m_odds->setText(i >= 0 && i < m_legal.size() && !m_legal[i].odds.isEmpty()
                            ? QStringLiteral("Odds: ") + m_legal[i].odds
                            : QString());
        if (!m_highlights.isEmpty() && i >= 0 && i < m_legal.size()) { // the current action drawn stronger
            m_view->rebuild(m_selected, m_highlights, m_legal[i].text);
        } else if (m_selected < 0 && m_session) { // a unit not on the table yet (TVBD 10.6): its places
            const int unit = i >= 0 && i < m_legal.size() ? m_legal[i].unit : -1;
            QList<TacActionView> places;
            if (i >= 0 && i < m_legal.size() && !m_legal[i].area.isEmpty()) { // 10.4, 16.6: its alternatives
                for (const TacActionView& a : m_legal)
                    if (!a.area.isEmpty() && a.group == m_legal[i].group)
                        places << a;
            } else if (unit >= 0 && unit < m_session->units().size() && !m_session->units()[unit].deployed)
                for (const TacActionView& a : m_legal)
                    if (a.unit == unit && a.end)
                        places << a;
            if (!places.isEmpty() || m_setupGhosts) {
                m_view->rebuild(-1, places, places.isEmpty() ? QString() : m_legal[i].text);
                m_setupGhosts = !places.isEmpty();
            }
        }
    });
    connect(m_actionList, &QListWidget::itemDoubleClicked, this,
            [this](QListWidgetItem* it) { submit(it->data(Qt::UserRole).toString()); });
    connect(m_applyBtn, &QPushButton::clicked, this, [this]() {
        if (QListWidgetItem* it = m_actionList->currentItem())
            submit(it->data(Qt::UserRole).toString());
    });
    connect(m_undoBtn, &QPushButton::clicked, this, &TacticalWindow::undo);
    connect(m_autoBtn, &QPushButton::clicked, this, &TacticalWindow::autoResolveRest);
    connect(m_allBtn, &QPushButton::clicked, this, [this]() { selectUnit(-1); });
    connect(m_computerBox, &QComboBox::activated, this, [this](int index) {
        const int mask = m_computerBox->itemData(index).toInt();
        setComputerSide(0, mask & 1);
        setComputerSide(1, mask & 2);
    });
    auto enter = [this]() {
        const QString t = m_entry->text().trimmed();
        if (!t.isEmpty() && submit(t))
            m_entry->clear();
    };
    connect(entryBtn, &QPushButton::clicked, this, enter);
    connect(m_entry, &QLineEdit::returnPressed, this, enter);
    connect(mvBtn, &QPushButton::clicked, this, &TacticalWindow::measuredMove);
}

bool TacticalWindow::openFile(const QString& path, quint64 seed, QString* error) {
    auto s = TacticalSession::open(path, seed, error);
    if (!s)
        return false;
    setSession(std::move(s));
    return true;
}

void TacticalWindow::setSession(std::unique_ptr<TacticalSession> session) {
    m_session = std::move(session);
    if (m_session)
        updateViewer();
    m_selected = -1;
    m_shownSide = -1;
    m_overShown = false;
    m_view->setSession(m_session.get());
    // The entry's example in the ruleset's own notation.
    m_entry->setPlaceholderText(m_session && m_session->ruleset() == QLatin1String("tercios")
                                    ? QStringLiteral("any action, e.g. move A1a 30.5,12 or order A1a fire")
                                    : QStringLiteral("any action, e.g. move B3 wheel 20 2.5"));
    updateComputerBox();
    m_result->setText(QStringLiteral("—"));
    refresh();
    m_view->fitTable();
    if (m_session && !m_session->openNote().isEmpty())
        statusBar()->showMessage(m_session->openNote()); // until the next message
}

TacticalWindow* TacticalWindow::openFromMenu(QWidget* parent) {
    const QString path = QFileDialog::getOpenFileName(
        parent, QStringLiteral("Open a tactical battle"), QStringLiteral("scenarios/battles"),
        QStringLiteral("Battle scenarios and records (*.json)"));
    if (path.isEmpty())
        return nullptr;
    auto* w = new TacticalWindow; // a window of its own, beside the campaign
    w->setAttribute(Qt::WA_DeleteOnClose);
    QString error;
    if (!w->openFile(path, QRandomGenerator::global()->generate(), &error)) {
        QMessageBox::warning(parent, QStringLiteral("Open a tactical battle"), error);
        delete w;
        return nullptr;
    }
    w->show();
    return w;
}

int TacticalWindow::runStandalone(const QString& file, quint64 seed, const QString& screenshot) {
    TacticalWindow w;
    QString error;
    if (!w.openFile(file, seed, &error)) {
        std::fprintf(stderr, "westphalia --battle: %s\n", qPrintable(error));
        if (screenshot.isEmpty())
            QMessageBox::critical(nullptr, QStringLiteral("Westphalia — battle"), error);
        return 1;
    }
    w.show();
    if (!screenshot.isEmpty()) {
        QTimer::singleShot(300, &w, [&w, screenshot]() {
            w.view()->fitTable();
            QCoreApplication::processEvents();
            QCoreApplication::exit(w.grab().save(screenshot, "PNG") ? 0 : 1);
        });
    }
    return QCoreApplication::instance() ? QApplication::exec() : 1;
}

void TacticalWindow::saveDialog() {
    if (!m_session)
        return;
    if (m_session->holdsSecrets() &&
        QMessageBox::question(
            this, QStringLiteral("Save the battle"),
            QStringLiteral("The record holds what the other player has not seen yet (order cards, an "
                           "order of battle still being recruited): the battle replays from it. Keep the "
                           "file from the other player until they are revealed.\n\nSave now?"),
            QMessageBox::Save | QMessageBox::Cancel) != QMessageBox::Save)
        return;
    const QString path = QFileDialog::getSaveFileName(this, QStringLiteral("Save the battle"), QString(),
                                                      QStringLiteral("Battle records (*.json)"));
    if (path.isEmpty())
        return;
    QString error;
    if (!m_session->saveRecord(path, &error))
        QMessageBox::warning(this, QStringLiteral("Save the battle"), error);
    else
        statusBar()->showMessage(QStringLiteral("Saved %1").arg(path), 5000);
}

void TacticalWindow::openDialog() {
    const QString path = QFileDialog::getOpenFileName(
        this, QStringLiteral("Open a tactical battle"), QStringLiteral("scenarios/battles"),
        QStringLiteral("Battle scenarios and records (*.json)"));
    if (path.isEmpty())
        return;
    QString error;
    if (!openFile(path, QRandomGenerator::global()->generate(), &error))
        QMessageBox::warning(this, QStringLiteral("Open a tactical battle"), error);
}

void TacticalWindow::selectUnit(int unit) {
    m_selected = unit;
    refresh();
}

void TacticalWindow::refresh() {
    const bool has = m_session != nullptr;
    // A computer seat's choices are its own: its legal actions (a Tercios reaction list tells its card) are
    // not listed.
    m_legal = has && !isComputerSide(m_session->actor()) ? m_session->legalActions() : QList<TacActionView>{};
    if (!has) {
        setWindowTitle(QStringLiteral("Westphalia — Tactical Battle"));
        m_header->setText(QStringLiteral("No battle open (Battle ▸ Open Tactical Battle…)"));
        m_view->rebuild(-1, {});
        fillActions();
        for (QPushButton* b : {m_applyBtn, m_undoBtn, m_autoBtn})
            b->setEnabled(false);
        return;
    }
    setWindowTitle(QStringLiteral("Westphalia — %1 (%2)").arg(m_session->title(), m_session->rulesetLabel()));
    m_header->setText(
        QStringLiteral("%1<br><span style='font-size:9pt;font-weight:normal'>%2, table %3 × %4 %5</span>")
            .arg(m_session->title().toHtmlEscaped(), m_session->rulesetLabel())
            .arg(m_session->tableW())
            .arg(m_session->tableD())
            .arg(m_session->measure()));
    m_turn->setText(m_session->turnText());
    const int actor = m_session->actor();
    if (m_session->over()) {
        m_prompt->setText(
            QStringLiteral("<b>The battle is over.</b> %1").arg(m_session->resultText().toHtmlEscaped()));
    } else {
        const QColor c = theme::sideColor(actor);
        m_prompt->setText(QStringLiteral("<span style='color:%1;font-weight:bold'>%2 to act:</span> %3")
                              .arg(c.name(), m_session->sideName(actor).toHtmlEscaped(),
                                   m_session->prompt().toHtmlEscaped()));
    }
    const QList<TacUnitView> units = m_session->units();
    if (m_selected >= units.size())
        m_selected = -1;
    if (m_selected >= 0) {
        m_unitInfo->setText(units[m_selected].tooltip);
    } else {
        m_unitInfo->setText(QStringLiteral("Click a unit to see its legal actions on the table."));
    }
    const bool tvbd = m_session->ruleset() == QLatin1String("tvbd");
    m_measured->setVisible(tvbd);
    m_measured->setEnabled(m_selected >= 0);
    m_highlights.clear();
    if (m_selected >= 0)
        for (const TacActionView& a : m_legal)
            if (a.unit == m_selected)
                m_highlights << a;
    m_view->rebuild(m_selected, m_highlights);
    fillActions();
    m_applyBtn->setEnabled(!m_legal.isEmpty());
    m_undoBtn->setEnabled(m_session->canUndo() && !isComputerSide(actor)); // not the computer's moves
    m_autoBtn->setEnabled(!m_session->over());

    m_log->clear();
    const QStringList log = m_session->log();
    // The whole log; a long battle keeps the last 3,000 lines on screen.
    const qsizetype from = std::max<qsizetype>(0, log.size() - 3000);
    for (qsizetype i = from; i < log.size(); ++i)
        m_log->addItem(log[i]);
    m_log->scrollToBottom();
    updateCover();
    emit changed();
    if (!m_session->over())
        m_overShown = false;
    else if (!m_overShown) {
        m_overShown = true;
        emit battleOver();
    }
    scheduleComputer();
}

void TacticalWindow::fillActions() {
    m_actionList->clear();
    m_odds->clear();
    int shown = 0;
    bool any = false;
    for (int pass = 0; pass < 2 && !any; ++pass) {
        for (int i = 0; i < m_legal.size(); ++i) {
            const TacActionView& a = m_legal[i];
            // First pass: the selected unit's actions; when it has none, every action.
            if (pass == 0 && m_selected >= 0 && a.unit != m_selected)
                continue;
            if (shown >= 400)
                break;
            auto* it = new QListWidgetItem(a.label);
            it->setData(Qt::UserRole, a.text);
            it->setData(Qt::UserRole + 1, i);
            if (!a.odds.isEmpty())
                it->setToolTip(a.odds);
            if (a.kind == TacActionView::Charge)
                it->setForeground(QColor(0xa0, 0x10, 0x10));
            else if (a.kind == TacActionView::Shoot)
                it->setForeground(QColor(0xb0, 0x60, 0x00));
            m_actionList->addItem(it);
            ++shown;
            any = true;
        }
        if (m_selected < 0)
            break;
    }
    if (m_legal.size() > shown && shown >= 400)
        m_actionList->addItem(QStringLiteral("… %1 more (select a unit)").arg(m_legal.size() - shown));
    if (m_actionList->count() > 0)
        m_actionList->setCurrentRow(0);
    else if (m_session && isComputerSide(m_session->actor())) {
        const QString side = m_session->sideName(m_session->actor());
        auto* it = new QListWidgetItem(
            QStringLiteral("%1 (computer) %2 choosing…").arg(side, tactical::verbFor(side, "is")));
        it->setFlags(Qt::NoItemFlags);
        m_actionList->addItem(it);
    }
}

bool TacticalWindow::collectDice(const QString& text, QList<int>* dice) {
    QList<int> entered;
    for (const QString& w :
         m_diceEntry->text().split(QRegularExpression(QStringLiteral("[\\s,]+")), Qt::SkipEmptyParts)) {
        bool ok = false;
        const int v = w.toInt(&ok);
        if (!ok || v < 1 || v > 6) {
            m_lastError = QStringLiteral("Dice for the next action: '%1' is not a die (1 to 6)").arg(w);
            return false;
        }
        entered << v;
    }
    // Dry runs on a copy: each tells how many dice the action rolls when the known dice come first; ask for
    // the missing ones until the engine needs no die it has not been given (the count can depend on the
    // dice, e.g. a Break Check after hits).
    for (int guard = 0; guard < 50; ++guard) {
        QStringList lines;
        QString why;
        const int need = m_session->diceNeeded(text, entered, &lines, &why);
        if (need < 0) {
            m_lastError = why;
            return false;
        }
        if (need <= entered.size()) {
            *dice = entered.mid(0, need);
            const QStringList rest = [&]() {
                QStringList r;
                for (int v : entered.mid(need))
                    r << QString::number(v);
                return r;
            }();
            m_diceEntry->setText(rest.join(QLatin1Char(' '))); // extra dice wait for the next action
            return true;
        }
        TacticalDiceDialog dlg(need - int(entered.size()), text, lines, this);
        if (dlg.exec() != QDialog::Accepted) {
            m_lastError = QStringLiteral("cancelled: no dice entered");
            return false;
        }
        entered << dlg.dice();
    }
    m_lastError = QStringLiteral("the dice needed by '%1' could not be settled").arg(text);
    return false;
}

bool TacticalWindow::submit(const QString& text) {
    if (!m_session || text.isEmpty())
        return false;
    m_lastError.clear();
    QList<int> dice;
    if (m_handDice->isChecked() && !collectDice(text, &dice)) {
        m_refusal = m_lastError;
        statusBar()->showMessage(m_refusal, 8000);
        return false;
    }
    const qsizetype before = m_session->log().size();
    QString error;
    if (!m_session->applyText(text, dice, &error)) {
        m_lastError = error;
        m_refusal = QStringLiteral("Refused: ") + error;
        statusBar()->showMessage(m_refusal, 8000);
        m_result->setText(QStringLiteral("<span style='color:#a01010'><b>Refused:</b> %1</span>")
                              .arg(error.toHtmlEscaped()));
        return false;
    }
    // Keep the selection on the unit that acted while it still has actions.
    refresh();
    showResult(before, m_session->publicText(text) +
                           (dice.isEmpty() ? QString() : QStringLiteral(" (dice by hand: %1)").arg([&]() {
                               QStringList d;
                               for (int v : dice)
                                   d << QString::number(v);
                               return d.join(QLatin1Char(' '));
                           }())));
    return true;
}

void TacticalWindow::showResult(qsizetype fromLine, const QString& what, bool lastLines) {
    clearRefusal();
    const QStringList log = m_session->log();
    constexpr qsizetype kShown = 14;
    const qsizetype total = log.size() - fromLine;
    // The first lines of an action; the last ones of an auto-resolve (how the battle ended).
    const qsizetype first = lastLines ? std::max(fromLine, log.size() - kShown) : fromLine;
    QStringList lines;
    if (lastLines && total > kShown)
        lines << QStringLiteral("… %1 lines before these in the log").arg(total - kShown);
    static const QRegularExpression dice(QStringLiteral("(\\[[0-9, ]+\\])"));
    for (qsizetype i = first; i < log.size() && i < first + kShown; ++i)
        lines << log[i].toHtmlEscaped().replace(dice, QStringLiteral("<b style='color:#8a1c1c'>\\1</b>"));
    if (!lastLines && total > kShown)
        lines << QStringLiteral("… and %1 more lines in the log").arg(total - kShown);
    m_result->setText(
        QStringLiteral("<b>%1</b><br>%2").arg(what.toHtmlEscaped(), lines.join(QStringLiteral("<br>"))));
}

void TacticalWindow::undo() {
    if (!m_session || !m_session->canUndo() || isComputerSide(m_session->actor()))
        return;
    m_session->undo();
    clearRefusal();
    refresh();
    m_result->setText(
        QStringLiteral("<b>Undone.</b> (Undo goes back to the last die roll or change of the side to act.)"));
}

// A refusal in the status bar is about the action refused: the next action played (or undone) ends it.
void TacticalWindow::clearRefusal() {
    if (!m_refusal.isEmpty() && statusBar()->currentMessage() == m_refusal)
        statusBar()->clearMessage();
    m_refusal.clear();
}

void TacticalWindow::autoResolveRest() {
    if (!m_session || m_session->over())
        return;
    const qsizetype before = m_session->log().size();
    const int n = m_session->autoResolveRest();
    m_selected = -1;
    refresh();
    showResult(before, QStringLiteral("auto-resolved: %1 actions").arg(n), true);
    m_result->setText(m_result->text() +
                      QStringLiteral("<br><b>%1</b>").arg(m_session->resultText().toHtmlEscaped()));
}

bool TacticalWindow::playPolicyMove() {
    if (!m_session || m_session->over())
        return false;
    const int side = m_session->actor();
    const qsizetype before = m_session->log().size();
    QString text;
    if (!m_session->applyPolicyAction(&text))
        return false;
    refresh();
    const QString policy = m_session->computerPolicy() == QLatin1String("tactical")
                               ? QStringLiteral("tactical AI")
                               : QStringLiteral("simple policy");
    showResult(before, QStringLiteral("%1 (%2, %3): %4")
                           .arg(m_session->sideName(side),
                                isComputerSide(side) ? QStringLiteral("computer") : QStringLiteral("policy"),
                                policy, m_session->publicText(text)));
    statusBar()->showMessage(
        QStringLiteral("%1 (computer): %2").arg(m_session->sideName(side), m_session->publicText(text)),
        4000);
    return true;
}

void TacticalWindow::setComputerSide(int side, bool computer) {
    if (side < 0 || side > 1)
        return;
    m_computer[side] = computer;
    updateComputerBox();
    if (m_session) {
        updateViewer();
        refresh(); // schedules the computer's next action
    }
}

void TacticalWindow::setComputerSidesLocked(bool locked) {
    m_computerLocked = locked;
    updateComputerBox();
}

// "Computer plays": the scenario's side names, the seats as they are.
void TacticalWindow::updateComputerBox() {
    const QSignalBlocker block(m_computerBox);
    const QString a = m_session ? m_session->sideName(0) : QStringLiteral("side A");
    const QString b = m_session ? m_session->sideName(1) : QStringLiteral("side B");
    m_computerBox->setItemText(0, QStringLiteral("none (both sides played here)"));
    m_computerBox->setItemText(1, a);
    m_computerBox->setItemText(2, b);
    m_computerBox->setItemText(3, QStringLiteral("both (%1 and %2)").arg(a, b));
    m_computerBox->setCurrentIndex((m_computer[0] ? 1 : 0) | (m_computer[1] ? 2 : 0));
    m_computerBox->setEnabled(m_session && !m_computerLocked);
}

// Whose cards the table shows: with one computer seat always the human side's view (the computer's cards
// are never the human's to see); otherwise the side to act's (hotseat covers the change).
void TacticalWindow::updateViewer() {
    const bool one = m_computer[0] != m_computer[1];
    m_session->setViewer(one ? (m_computer[0] ? 1 : 0) : TacticalSession::kFollowActor);
}

// A computer side to act: its next action after the delay (queued, so the window shows each one).
void TacticalWindow::scheduleComputer() {
    if (m_computerPending || !m_session || m_session->over() || !isComputerSide(m_session->actor()))
        return;
    m_computerPending = true;
    QTimer::singleShot(m_computerDelay, this, [this]() {
        m_computerPending = false;
        if (m_session && !m_session->over() && isComputerSide(m_session->actor()))
            playPolicyMove(); // refresh() schedules the next one
    });
}

void TacticalWindow::setHotseat(bool on) {
    if (m_hotseatAction->isChecked() != on)
        m_hotseatAction->setChecked(on); // comes back here through toggled
    m_shownSide = -1;
    updateCover();
}

void TacticalWindow::updateCover() {
    // Tercios order cards; TVBD orders of battle while the players recruit (10.2)
    const bool secret =
        m_session && (m_session->ruleset() == QLatin1String("tercios") || m_session->holdsSecrets());
    const int actor = m_session ? m_session->actor() : -1;
    if (isComputerSide(actor)) { // a computer side's secret orders are not the human's to see anyway
        m_cover->hide();
        return;
    }
    if (!m_hotseatAction->isChecked() || !secret || actor < 0 || actor == m_shownSide) {
        if (!m_hotseatAction->isChecked() || !secret)
            m_cover->hide();
        return;
    }
    m_coverText->setText(
        QStringLiteral("%1 to act\n\nPass the screen to the %1 player; the other player looks "
                       "away (%2).")
            .arg(m_session->sideName(actor),
                 m_session->ruleset() == QLatin1String("tercios")
                     ? QStringLiteral("the order cards are secret")
                     : QStringLiteral("the orders of battle are secret until both armies are recruited")));
    m_coverBtn->setText(
        QStringLiteral("  I am the %1 player — show the table  ").arg(m_session->sideName(actor)));
    m_cover->setGeometry(rect());
    m_cover->show();
    m_cover->raise();
}

void TacticalWindow::closeEvent(QCloseEvent* e) {
    if (m_session && !m_session->over())
        emit closingUnfinished();
    QMainWindow::closeEvent(e);
}

void TacticalWindow::resizeEvent(QResizeEvent* e) {
    QMainWindow::resizeEvent(e);
    if (m_cover)
        m_cover->setGeometry(rect());
}

void TacticalWindow::setAssistDice(bool byHand) {
    m_handDice->setChecked(byHand);
}

void TacticalWindow::measuredMove() {
    if (!m_session || m_selected < 0)
        return;
    const QString t = m_session->measuredMoveText(m_selected, m_moveKind->currentText(), m_moveAngle->value(),
                                                  m_moveDist->value());
    if (!t.isEmpty())
        submit(t);
}

void TacticalWindow::tableClicked(Vec2 at) {
    if (!m_session)
        return;
    // the selected unit, or the unit of the current action when it is not on the table yet (10.6 deploy)
    int unit = m_selected;
    if (unit < 0)
        if (QListWidgetItem* it = m_actionList->currentItem()) {
            const int i = it->data(Qt::UserRole + 1).toInt();
            if (i >= 0 && i < m_legal.size() && m_legal[i].unit >= 0 &&
                m_legal[i].unit < m_session->units().size() && !m_session->units()[m_legal[i].unit].deployed)
                unit = m_legal[i].unit;
        }
    if (unit < 0)
        return;
    const QString t = m_session->moveToText(unit, at);
    if (t.isEmpty()) {
        statusBar()->showMessage(QStringLiteral("This unit moves by the listed or measured moves"), 5000);
        return;
    }
    submit(t);
}

} // namespace wp
