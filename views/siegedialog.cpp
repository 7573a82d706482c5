#include "siegedialog.h"

#include "gamecontroller.h"
#include "rules/internal.h"
#include "theme.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QVBoxLayout>

namespace wp {

using namespace rules;

SiegeDialog::SiegeDialog(GameController* controller, QWidget* parent) : QDialog(parent), gc(controller) {
    setObjectName(QStringLiteral("siegeDialog"));
    setModal(false);
    auto* lay = new QVBoxLayout(this);
    lay->setContentsMargins(16, 14, 16, 14);
    lay->setSpacing(10);
    m_title = new QLabel(this);
    m_title->setFont(theme::serif(17, true));
    m_title->setAlignment(Qt::AlignHCenter);
    lay->addWidget(m_title);
    m_body = new QLabel(this);
    m_body->setTextFormat(Qt::RichText);
    m_body->setWordWrap(true);
    m_body->setStyleSheet(
        QStringLiteral("QLabel { background: #fbf7ee; border: 1px solid #c8b088; border-radius: 6px;"
                       " padding: 10px; }"));
    lay->addWidget(m_body);
    m_chance = new QLabel(this);
    m_chance->setObjectName(QStringLiteral("siegeChance"));
    m_chance->setTextFormat(Qt::RichText);
    m_chance->setAlignment(Qt::AlignHCenter);
    lay->addWidget(m_chance);
    m_result = new QLabel(this);
    m_result->setObjectName(QStringLiteral("siegeResult"));
    m_result->setTextFormat(Qt::RichText);
    m_result->setWordWrap(true);
    m_result->setAlignment(Qt::AlignHCenter);
    lay->addWidget(m_result);
    auto* row = new QHBoxLayout();
    row->addStretch(1);
    m_cancel = new QPushButton(QStringLiteral("Not now"), this);
    m_roll = new QPushButton(QStringLiteral("Roll for the siege"), this);
    m_roll->setObjectName(QStringLiteral("rollSiege"));
    m_roll->setProperty("primary", true);
    row->addWidget(m_cancel);
    row->addWidget(m_roll);
    lay->addLayout(row);
    connect(m_cancel, &QPushButton::clicked, this, &QDialog::hide);
    connect(m_roll, &QPushButton::clicked, this, &SiegeDialog::roll);
    resize(460, 420);
}

void SiegeDialog::open(int city, const Action& assault) {
    const GameData& d = gc->data();
    const GameState& s = gc->state();
    m_city = city;
    m_assault = assault;
    m_side = gc->actor();
    m_odds = computeSiegeOdds(d, s, city, m_side);
    const SiegeOdds& o = m_odds;
    setWindowTitle(QStringLiteral("Siege of %1").arg(cityName(d, city)));
    m_title->setText(QStringLiteral("Siege of %1").arg(cityName(d, city)));
    QString h = QStringLiteral("<table width='100%' cellpadding='3'>"
                               "<tr><td>Fortress Strength</td><td align='right'><b>%1</b></td></tr>"
                               "<tr><td>Defenders inside (CF)</td><td align='right'><b>%2</b></td></tr>"
                               "<tr><td>Siege Level (13.13)</td><td align='right'><b>%3</b></td></tr>"
                               "<tr><td>%4 besiegers (CF)</td><td align='right'><b>%5</b></td></tr>"
                               "<tr><td>Siege marker</td><td align='right'><b>%6</b></td></tr>"
                               "</table><hr>")
                    .arg(o.fortressStrength)
                    .arg(o.insideCf)
                    .arg(o.siegeLevel)
                    .arg(theme::sideName(m_side))
                    .arg(o.besiegerCf)
                    .arg(o.continued ? QStringLiteral("Continued Siege +%1").arg(o.continued)
                                     : QStringLiteral("Siege"));
    h += QStringLiteral("<b>DRM %1%2</b>").arg(o.drm >= 0 ? "+" : "").arg(o.drm);
    QStringList parts;
    for (const auto& [what, v] : o.drmParts)
        parts << QStringLiteral("%1 %2%3").arg(what.toHtmlEscaped()).arg(v >= 0 ? "+" : "").arg(v);
    if (!parts.isEmpty())
        h += QStringLiteral(": ") + parts.join(QStringLiteral(", "));
    h += QStringLiteral(
        "<br><span style='color:#6a5536'>A natural 9 always succeeds; a natural 0 always fails and the "
        "besiegers lose a step (13.25). A failed roll advances the Continued Siege marker (13.26).</span>");
    m_body->setText(h);
    m_chance->setText(QStringLiteral("<span style='font-size:11pt'>Chance the fortress falls</span><br>"
                                     "<span style='font-size:26pt; font-weight:bold; color:%1'>%2%</span><br>"
                                     "<span style='color:#6a5536'>step loss risk %3%</span>")
                          .arg(theme::sideColor(m_side).name())
                          .arg(qRound(o.success * 100))
                          .arg(qRound(o.stepLoss * 100)));
    m_result->clear();
    m_roll->setEnabled(true);
    m_roll->setVisible(true);
    m_cancel->setText(QStringLiteral("Not now"));
    m_logFrom = static_cast<qsizetype>(gc->log().size());
    show();
    raise();
}

void SiegeDialog::roll() {
    emit submitAction(m_assault);
    // The result, from the log lines the roll wrote.
    const auto& log = gc->log();
    QStringList lines;
    QString verdict;
    for (qsizetype i = m_logFrom; i < static_cast<qsizetype>(log.size()); ++i) {
        const QString& t = log[static_cast<size_t>(i)].text;
        if (!t.startsWith(QLatin1String("13.")))
            continue;
        lines << t.toHtmlEscaped();
        if (t.contains(QLatin1String("Successful")))
            verdict = QStringLiteral("<span style='font-size:15pt; color:#2e7d32'><b>%1 falls!</b></span>")
                          .arg(cityName(gc->data(), m_city));
        else if (t.contains(QLatin1String("Unsuccessful")))
            verdict = QStringLiteral("<span style='font-size:15pt; color:#a02020'><b>%1 holds.</b></span>")
                          .arg(cityName(gc->data(), m_city));
    }
    m_result->setText(QStringLiteral("%1<br><span style='color:#6a5536; font-size:8pt'>%2</span>")
                          .arg(verdict, lines.join(QStringLiteral("<br>"))));
    m_roll->setEnabled(false);
    m_roll->setVisible(false);
    m_cancel->setText(QStringLiteral("Close"));
}

} // namespace wp
