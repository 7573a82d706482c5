#include "newgamedialog.h"

#include "theme.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QListWidget>
#include <QPushButton>
#include <QRandomGenerator>
#include <QSettings>
#include <QSpinBox>
#include <QStandardItemModel>
#include <QVBoxLayout>

namespace wp {

NewGameDialog::NewGameDialog(const GameData& gameData, QWidget* parent) : QDialog(parent), d(gameData) {
    setWindowTitle(QStringLiteral("New Game"));
    setObjectName(QStringLiteral("newGameDialog"));
    auto* lay = new QVBoxLayout(this);
    lay->setSpacing(10);
    auto* title = new QLabel(QStringLiteral("Thirty Years War — Europe in Agony 1618–1648"), this);
    title->setFont(theme::serif(15, true));
    lay->addWidget(title);

    auto* top = new QHBoxLayout();
    auto* scenBox = new QGroupBox(QStringLiteral("Scenario"), this);
    auto* scenLay = new QVBoxLayout(scenBox);
    m_scenarios = new QListWidget(scenBox);
    m_scenarios->setObjectName(QStringLiteral("scenarioList"));
    for (const Scenario& s : d.scenarios) {
        auto* it = new QListWidgetItem(QStringLiteral("%1\nturns %2–%3 (%4–%5) · rule %6")
                                           .arg(s.name)
                                           .arg(s.firstTurn)
                                           .arg(s.lastTurn)
                                           .arg(1618 + 2 * s.firstTurn)
                                           .arg(1619 + 2 * s.lastTurn)
                                           .arg(s.rule),
                                       m_scenarios);
        it->setData(Qt::UserRole, s.id);
    }
    m_scenarios->setMinimumWidth(280);
    scenLay->addWidget(m_scenarios);
    top->addWidget(scenBox, 1);
    m_about = new QLabel(this);
    m_about->setWordWrap(true);
    m_about->setTextFormat(Qt::RichText);
    m_about->setAlignment(Qt::AlignTop | Qt::AlignLeft);
    m_about->setMinimumWidth(300);
    m_about->setStyleSheet(
        QStringLiteral("QLabel { background: #fbf7ee; border: 1px solid #c8b088; border-radius: 6px;"
                       " padding: 8px; }"));
    top->addWidget(m_about, 1);
    lay->addLayout(top);

    auto* bottom = new QHBoxLayout();
    auto* optBox = new QGroupBox(QStringLiteral("Optional rules"), this);
    auto* optLay = new QVBoxLayout(optBox);
    m_opt191 = new QCheckBox(QStringLiteral("19.1 Alternative victory conditions"), optBox);
    m_opt192a = new QCheckBox(QStringLiteral("19.2a Stronger Imperial army (4th Imperial Veteran)"), optBox);
    m_opt192b = new QCheckBox(QStringLiteral("19.2b Guébriant, the extra French leader"), optBox);
    optLay->addWidget(m_opt191);
    optLay->addWidget(m_opt192a);
    optLay->addWidget(m_opt192b);
    // Issue 12 (docs/linked-battles.md): where regular battles are resolved.
    auto* battlesRow = new QHBoxLayout();
    battlesRow->addWidget(new QLabel(QStringLiteral("Battles:"), optBox));
    m_battles = new QComboBox(optBox);
    m_battles->setObjectName(QStringLiteral("battles"));
    m_battles->addItem(QStringLiteral("Combat Results Table"), QStringLiteral("crt"));
    m_battles->addItem(QStringLiteral("On the table: Tilly's Very Bad Day"), QStringLiteral("tvbd"));
    m_battles->addItem(QStringLiteral("On the table: Brevis Editio Tercios"), QStringLiteral("tercios"));
    m_battles->addItem(QStringLiteral("Ask battle by battle (the attacker asks, the defender decides)"),
                       QStringLiteral("ask"));
    m_battles->setToolTip(QStringLiteral("Linked battles: a campaign battle fought with miniatures (or "
                                         "auto-resolved on screen) and its result carried back"));
    battlesRow->addWidget(m_battles, 1);
    optLay->addLayout(battlesRow);
    auto* seedRow = new QHBoxLayout();
    m_randomSeed = new QCheckBox(QStringLiteral("Random shuffle and dice"), optBox);
    m_randomSeed->setObjectName(QStringLiteral("randomSeed"));
    m_randomSeed->setChecked(true);
    m_seed = new QSpinBox(optBox);
    m_seed->setObjectName(QStringLiteral("seed"));
    m_seed->setRange(0, 2000000000);
    m_seed->setPrefix(QStringLiteral("seed "));
    m_seed->setEnabled(false);
    seedRow->addWidget(m_randomSeed);
    seedRow->addWidget(m_seed);
    optLay->addLayout(seedRow);
    connect(m_randomSeed, &QCheckBox::toggled, m_seed, [this](bool on) { m_seed->setEnabled(!on); });
    bottom->addWidget(optBox, 1);

    auto* seatBox = new QGroupBox(QStringLiteral("Players"), this);
    auto* seatLay = new QFormLayout(seatBox);
    for (int side : {1, 0}) {
        m_seats[side] = new QComboBox(seatBox);
        m_seats[side]->setObjectName(side == 0 ? QStringLiteral("seatCatholic")
                                               : QStringLiteral("seatProtestant"));
        m_seats[side]->addItem(QStringLiteral("Human, at this computer"), static_cast<int>(SeatKind::Human));
        m_seats[side]->addItem(QStringLiteral("Computer"), static_cast<int>(SeatKind::Computer));
        m_seats[side]->addItem(QStringLiteral("Remote player by e-mail"), static_cast<int>(SeatKind::Remote));
        m_seats[side]->setItemData(
            2,
            QStringLiteral("Play by e-mail: you play the other side here, and Start writes "
                           "the start file to send (Game ▸ Play by E-mail)"),
            Qt::ToolTipRole);
        auto* label = new QLabel(theme::sideName(side), seatBox);
        label->setStyleSheet(
            QStringLiteral("QLabel { color: %1; font-weight: bold; }").arg(theme::sideColor(side).name()));
        seatLay->addRow(label, m_seats[side]);
    }
    // By e-mail, the other side is the human here.
    for (int side : {0, 1})
        connect(m_seats[side], &QComboBox::currentIndexChanged, this, [this, side](int) {
            if (m_seats[side]->currentData().toInt() == static_cast<int>(SeatKind::Remote))
                m_seats[1 - side]->setCurrentIndex(
                    m_seats[1 - side]->findData(static_cast<int>(SeatKind::Human)));
            else if (m_seats[1 - side]->currentData().toInt() == static_cast<int>(SeatKind::Remote) &&
                     m_seats[side]->currentData().toInt() != static_cast<int>(SeatKind::Human))
                m_seats[1 - side]->setCurrentIndex(0);
        });
    m_computer = new QComboBox(seatBox);
    m_computer->setObjectName(QStringLiteral("computerStrength"));
    m_computer->addItem(QStringLiteral("Easy (small search, a random plan in 30 % of its card rounds; "
                                       "its Aid halved when it plays one side)"),
                        QStringLiteral("search:1"));
    // Easy's handicap in the rules (issue 8): the computer side's AID plays give half the Aid Points,
    // the game option handicap=<side>:half-aid, so saves and replays carry it (docs/ai.md).
    m_computer->setItemData(0, true, kHalfAidRole);
    m_computer->addItem(QStringLiteral("Quick (priority list)"), QStringLiteral("priority"));
    m_computer->addItem(QStringLiteral("Normal (search)"), QStringLiteral("search"));
    m_computer->addItem(QStringLiteral("Strong (deeper search)"), QStringLiteral("search:3"));
    m_computer->setCurrentIndex(m_computer->findData(QStringLiteral("search")));
    m_computer->setToolTip(QStringLiteral("How the computer plays its seats: the difficulty is its search "
                                          "budget and, at Easy, a handicap (docs/ai.md)"));
    seatLay->addRow(QStringLiteral("Computer plays"), m_computer);
    m_cover = new QCheckBox(QStringLiteral("Hide each hand behind a cover between players"), seatBox);
    m_cover->setObjectName(QStringLiteral("coverHands"));
    m_cover->setChecked(QSettings().value(QStringLiteral("game/coverHands"), true).toBool());
    seatLay->addRow(m_cover);
    bottom->addWidget(seatBox, 1);
    lay->addLayout(bottom);

    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    buttons->button(QDialogButtonBox::Ok)->setText(QStringLiteral("Start"));
    buttons->button(QDialogButtonBox::Ok)->setProperty("primary", true);
    connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    lay->addWidget(buttons);
    connect(m_scenarios, &QListWidget::currentRowChanged, this, [this](int) { showAbout(); });
    setScenario(
        QSettings().value(QStringLiteral("game/lastScenario"), QStringLiteral("campaign")).toString());
    resize(760, 560);
}

void NewGameDialog::setScenario(const QString& id) {
    for (int i = 0; i < m_scenarios->count(); ++i)
        if (m_scenarios->item(i)->data(Qt::UserRole).toString() == id)
            m_scenarios->setCurrentRow(i);
    if (m_scenarios->currentRow() < 0 && m_scenarios->count())
        m_scenarios->setCurrentRow(0);
}

void NewGameDialog::showAbout() {
    const auto* it = m_scenarios->currentItem();
    const Scenario* s = it ? d.scenario(it->data(Qt::UserRole).toString()) : nullptr;
    if (!s) {
        m_about->clear();
        return;
    }
    QString h = QStringLiteral("<h3 style='margin:0'>%1</h3><p>Turns %2–%3 · starting VP %4 · rule %5</p>")
                    .arg(s->name.toHtmlEscaped())
                    .arg(s->firstTurn)
                    .arg(s->lastTurn)
                    .arg(s->vp)
                    .arg(s->rule);
    const QString victory = s->victory.value(QStringLiteral("text")).toString();
    if (!victory.isEmpty())
        h += QStringLiteral("<p><b>Victory.</b> %1</p>").arg(victory.toHtmlEscaped());
    m_about->setText(h);
}

NewGameSetup NewGameDialog::setup() const {
    NewGameSetup s;
    if (const auto* it = m_scenarios->currentItem())
        s.scenario = it->data(Qt::UserRole).toString();
    if (m_opt191->isChecked())
        rules::setOption(s.options, QStringLiteral("19.1=on"), nullptr);
    if (m_opt192a->isChecked())
        rules::setOption(s.options, QStringLiteral("19.2a=on"), nullptr);
    if (m_opt192b->isChecked())
        rules::setOption(s.options, QStringLiteral("19.2b=on"), nullptr);
    if (m_battles->currentData().toString() != QLatin1String("crt"))
        rules::setOption(s.options, QStringLiteral("battles=") + m_battles->currentData().toString(),
                         nullptr);
    s.seed = m_randomSeed->isChecked() ? QRandomGenerator::global()->generate64() >> 1
                                       : static_cast<quint64>(m_seed->value());
    for (int side : {0, 1})
        s.seats[side] = static_cast<SeatKind>(m_seats[side]->currentData().toInt());
    s.coverHands = m_cover->isChecked();
    s.computerBot = m_computer->currentData().toString();
    // Easy: the handicap goes to the computer's side, when the computer plays exactly one side
    const bool computer[2] = {s.seats[0] == SeatKind::Computer, s.seats[1] == SeatKind::Computer};
    if (m_computer->currentData(kHalfAidRole).toBool() && computer[0] != computer[1])
        rules::setOption(s.options,
                         computer[0] ? QStringLiteral("handicap=catholic:half-aid")
                                     : QStringLiteral("handicap=protestant:half-aid"),
                         nullptr);
    return s;
}

} // namespace wp
