#include "pbempanel.h"

#include "ordersdialog.h"
#include "theme.h"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QListWidget>
#include <QPushButton>
#include <QVBoxLayout>

namespace wp {

NewPbemDialog::NewPbemDialog(const GameData& d, QWidget* parent) : QDialog(parent) {
    setWindowTitle(QStringLiteral("New Game by E-mail"));
    setObjectName(QStringLiteral("newPbemDialog"));
    auto* lay = new QVBoxLayout(this);
    auto* intro = new QLabel(
        QStringLiteral("<p>You create the game and send the <b>start file</b> to your opponent, who joins "
                       "with it (Game ▸ Play by E-mail ▸ Join) and sends his answer back. Then each of "
                       "you exports a <b>turn file</b> whenever the decision passes to the other; "
                       "every file received is verified by replaying it.</p><p>Your secrets (the key "
                       "to your deck and your dice) stay on this computer; nothing in a file lets your "
                       "opponent learn your hand or choose a die.</p>"),
        this);
    intro->setWordWrap(true);
    lay->addWidget(intro);
    auto* form = new QFormLayout();
    m_scenario = new QComboBox(this);
    m_scenario->setObjectName(QStringLiteral("pbemScenario"));
    for (const auto& sc : d.scenarios)
        m_scenario->addItem(sc.name, sc.id);
    const int campaign = m_scenario->findData(QStringLiteral("campaign"));
    if (campaign >= 0)
        m_scenario->setCurrentIndex(campaign);
    form->addRow(QStringLiteral("Scenario"), m_scenario);
    m_side = new QComboBox(this);
    m_side->setObjectName(QStringLiteral("pbemSide"));
    m_side->addItem(theme::sideName(0), 0);
    m_side->addItem(theme::sideName(1), 1);
    form->addRow(QStringLiteral("You play"), m_side);
    m_dice = new QComboBox(this);
    m_dice->setObjectName(QStringLiteral("pbemDice"));
    m_dice->addItem(QStringLiteral("Sealed: no roll can be foreseen (a file per roll)"),
                    static_cast<int>(save::DiceMode::Sealed));
    m_dice->addItem(QStringLiteral("Open: fewer e-mails, the roller foresees his own rolls"),
                    static_cast<int>(save::DiceMode::Open));
    form->addRow(QStringLiteral("Dice"), m_dice);
    lay->addLayout(form);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    buttons->button(QDialogButtonBox::Ok)->setText(QStringLiteral("Create and export the start file…"));
    buttons->button(QDialogButtonBox::Ok)->setProperty("primary", true);
    connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    lay->addWidget(buttons);
    resize(560, 320);
}

QString NewPbemDialog::scenario() const {
    return m_scenario->currentData().toString();
}

int NewPbemDialog::side() const {
    return m_side->currentData().toInt();
}

save::DiceMode NewPbemDialog::dice() const {
    return static_cast<save::DiceMode>(m_dice->currentData().toInt());
}

PbemPanel::PbemPanel(GameController* g, QWidget* parent) : QWidget(parent), gc(g) {
    auto* lay = new QVBoxLayout(this);
    lay->setContentsMargins(6, 6, 6, 6);
    m_status = new QLabel(this);
    m_status->setObjectName(QStringLiteral("pbemStatus"));
    m_status->setWordWrap(true);
    m_status->setTextInteractionFlags(Qt::TextSelectableByMouse);
    lay->addWidget(m_status);
    auto* row = new QHBoxLayout();
    m_export = new QPushButton(QStringLiteral("Export Turn…"), this);
    m_export->setObjectName(QStringLiteral("pbemExport"));
    m_import = new QPushButton(QStringLiteral("Import Turn…"), this);
    m_import->setObjectName(QStringLiteral("pbemImport"));
    m_orders = new QPushButton(QStringLiteral("Orders…"), this);
    m_orders->setObjectName(QStringLiteral("pbemOrders"));
    m_orders->setToolTip(
        QStringLiteral("Standing orders: answers to some of your decisions (reaction, combat "
                       "cards, losses, retreat, peace) that your opponent's copy takes for "
                       "you, so that fewer files are needed. Public."));
    row->addWidget(m_export);
    row->addWidget(m_import);
    row->addWidget(m_orders);
    lay->addLayout(row);
    m_outcome = new QLabel(this);
    m_outcome->setObjectName(QStringLiteral("pbemOutcome"));
    m_outcome->setWordWrap(true);
    m_outcome->setTextInteractionFlags(Qt::TextSelectableByMouse);
    lay->addWidget(m_outcome);
    m_happened = new QListWidget(this);
    m_happened->setObjectName(QStringLiteral("pbemHappened"));
    theme::wrapLines(m_happened);
    lay->addWidget(m_happened, 1);
    m_step = new QPushButton(QStringLiteral("Step through what happened"), this);
    m_step->setObjectName(QStringLiteral("pbemStep"));
    lay->addWidget(m_step);
    connect(m_export, &QPushButton::clicked, this, &PbemPanel::exportRequested);
    connect(m_import, &QPushButton::clicked, this, &PbemPanel::importRequested);
    connect(m_step, &QPushButton::clicked, this, &PbemPanel::stepRequested);
    connect(m_orders, &QPushButton::clicked, this, &PbemPanel::editOrders);
    m_step->setEnabled(false);
    refresh();
}

void PbemPanel::refresh() {
    const save::PbemSession* s = gc->pbem();
    if (!s) {
        m_status->setText(QStringLiteral("No game by e-mail."));
        m_export->setEnabled(false);
        m_import->setEnabled(false);
        m_orders->setEnabled(false);
        return;
    }
    m_orders->setEnabled(s->ordersAllowed());
    const bool must = s->mustExport();
    QString html =
        QStringLiteral("<b>Game %1</b> · you play <span style='color:%2'><b>%3</b></span><br>")
            .arg(s->gameId().left(8), theme::sideColor(s->mySide()).name(), theme::sideName(s->mySide()));
    QStringList lines = s->status().split(QLatin1Char('\n'));
    if (!lines.isEmpty()) // "game …, you play …, open dice, N files exchanged": said above but the dice
        lines.front() = lines.front().section(QStringLiteral(", "), 2);
    html += lines.join(QLatin1Char('\n')).toHtmlEscaped().replace(QLatin1Char('\n'), QStringLiteral("<br>"));
    if (must)
        html += QStringLiteral("<br><b style='color:#8a5a00'>Export your turn file now and send it to your "
                               "opponent.</b>");
    else if (!s->myBall())
        html += QStringLiteral("<br><i>When your opponent's file arrives, import it (or drop it on the "
                               "window).</i>");
    m_status->setText(html);
    m_export->setEnabled(s->myBall() && !s->canPlay());
    m_export->setProperty("primary", must);
    m_import->setEnabled(true);
}

void PbemPanel::showImport(const TurnImport& r) {
    m_happened->clear();
    if (!r.ok && !r.error.isEmpty() && r.actions == 0 && r.happened.isEmpty()) {
        m_outcome->setText(
            QStringLiteral(
                "<p style='color:#a01010'><b>✗ Refused:</b> %1</p><p><b>Reason:</b> %2</p><p>Nothing "
                "was imported; your game is as it was. Ask your opponent for the file again, or "
                "tell him what is wrong.</p>")
                .arg(r.file.toHtmlEscaped(), r.error.toHtmlEscaped()));
        m_step->setEnabled(false);
        m_happened->hide();
        return;
    }
    m_happened->show();
    const QString who = r.fromSide >= 0 ? theme::sideName(r.fromSide) : QStringLiteral("your opponent");
    QString html =
        r.actions > 0
            ? QStringLiteral("<p style='color:#1a6b1a'><b>✓ Verified and imported:</b> %1</p>"
                             "<p>File %2 from the <b>%3</b> player: %4 action(s) replayed through the "
                             "rules, each legal; the file continues the last one (sequence and hash); the "
                             "dice checked against both players' committed randomness; the public "
                             "state matches the sender's.</p>")
                  .arg(r.file.toHtmlEscaped())
                  .arg(r.seq)
                  .arg(who)
                  .arg(r.actions)
            : QStringLiteral("<p style='color:#1a6b1a'><b>✓ Verified and imported:</b> %1</p>"
                             "<p>File %2 from the <b>%3</b> player, without actions: it continues the last "
                             "one (sequence and hash), and its commitments and randomness were "
                             "accepted.</p>")
                  .arg(r.file.toHtmlEscaped())
                  .arg(r.seq)
                  .arg(who);
    if (!r.error.isEmpty())
        html += QStringLiteral("<p style='color:#a01010'>%1</p>").arg(r.error.toHtmlEscaped());
    m_outcome->setText(html);
    for (const QString& line : r.happened) {
        auto* it = new QListWidgetItem(line.trimmed(), m_happened);
        if (!line.startsWith(QLatin1String("  ")))
            it->setForeground(theme::ink().lighter(160));
        else {
            QFont f = it->font();
            f.setBold(true);
            it->setFont(f);
        }
    }
    m_step->setEnabled(r.actions > 0);
}

void PbemPanel::editOrders() {
    const save::PbemSession* s = gc->pbem();
    if (!s || !s->ordersAllowed())
        return;
    OrdersDialog dlg(s->engine().data(), s->myOrders(), s->opponentOrders(), this);
    if (dlg.exec() != QDialog::Accepted)
        return;
    QString error;
    if (!gc->setPbemOrders(dlg.orders(), &error))
        showMessage(QStringLiteral("<p style='color:#a01010'><b>The orders were not kept:</b> %1</p>")
                        .arg(error.toHtmlEscaped()));
    refresh();
}

void PbemPanel::showMessage(const QString& html) {
    m_outcome->setText(html);
    m_happened->clear();
    m_happened->hide();
    m_step->setEnabled(false);
}

} // namespace wp
