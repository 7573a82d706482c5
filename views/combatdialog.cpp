#include "combatdialog.h"

#include "describe.h"
#include "gamecontroller.h"
#include "rules/internal.h"
#include "tableresultdialog.h"
#include "theme.h"

#include <QButtonGroup>
#include <QFrame>
#include <QHBoxLayout>
#include <QLabel>
#include <QPainter>
#include <QPushButton>
#include <QRadioButton>
#include <QRegularExpression>
#include <QStyle>
#include <QVBoxLayout>
#include <algorithm>

namespace wp {

using namespace rules;

OddsChart::OddsChart(QWidget* parent) : QWidget(parent) {
    setMinimumSize(520, 224);
}

void OddsChart::setOdds(const CombatOdds& o, bool show) {
    m_odds = o;
    m_show = show;
    update();
}

void OddsChart::paintEvent(QPaintEvent*) {
    QPainter p(this);
    p.setRenderHint(QPainter::Antialiasing, true);
    const QRectF r = rect().adjusted(1, 1, -1, -1);
    p.setPen(QPen(QColor(0xc8, 0xb0, 0x88), 1));
    p.setBrush(QColor(0xfb, 0xf7, 0xee));
    p.drawRoundedRect(r, 6, 6);
    if (!m_show)
        return;
    const CombatOdds& o = m_odds;
    const int att = o.attacker, def = 1 - att;
    int maxN = 1;
    double maxP = 0.01;
    for (int side : {0, 1})
        for (int n = 0; n < 32; ++n)
            if (o.inflicts[side][static_cast<size_t>(n)] > 0) {
                maxN = std::max(maxN, n);
                maxP = std::max(maxP, o.inflicts[side][static_cast<size_t>(n)]);
            }
    const double left = r.left() + 12, width = r.width() - 24;
    const double colW = width / (maxN + 1);
    auto row = [&](int side, double top, double h) {
        p.setPen(theme::sideDark(side));
        p.setFont(theme::sans(8, true));
        p.drawText(QRectF(left, top, width, 14), Qt::AlignLeft | Qt::AlignVCenter,
                   QStringLiteral("Loss Number the %1 inflicts  (average %2)")
                       .arg(theme::sideName(side))
                       .arg(o.expected[side], 0, 'f', 1));
        const double base = top + h;
        for (int n = 0; n <= maxN; ++n) {
            const double pr = o.inflicts[side][static_cast<size_t>(n)];
            // The tallest bar leaves room for its percentage under the row's heading.
            const double bh = (h - 44) * pr / maxP;
            const QRectF bar(left + n * colW + 2, base - 12 - bh, colW - 4, bh);
            if (pr > 0) {
                p.setPen(Qt::NoPen);
                p.setBrush(theme::sideColor(side));
                p.drawRoundedRect(bar, 2, 2);
                p.setPen(theme::ink());
                p.setFont(theme::sans(6));
                p.drawText(QRectF(bar.left() - 4, bar.top() - 11, bar.width() + 8, 10), Qt::AlignCenter,
                           QStringLiteral("%1%").arg(qRound(pr * 100)));
            }
            p.setPen(QColor(0x6a, 0x55, 0x36));
            p.setFont(theme::sans(6.5, pr > 0));
            p.drawText(QRectF(left + n * colW, base - 11, colW, 10), Qt::AlignCenter, QString::number(n));
        }
    };
    const double h = (r.height() - 52) / 2;
    row(att, r.top() + 6, h);
    row(def, r.top() + 6 + h, h);
    // Who wins.
    const double wy = r.bottom() - 38;
    const QRectF bar(left, wy, width, 18);
    const double pa = o.winProb[att];
    p.setPen(Qt::NoPen);
    p.setBrush(theme::sideColor(att));
    p.drawRoundedRect(QRectF(bar.left(), bar.top(), bar.width() * pa, bar.height()), 4, 4);
    p.setBrush(theme::sideColor(def));
    p.drawRoundedRect(QRectF(bar.left() + bar.width() * pa, bar.top(), bar.width() * (1 - pa), bar.height()),
                      4, 4);
    p.setPen(Qt::white);
    p.setFont(theme::sans(8, true));
    if (pa > 0.12)
        p.drawText(bar.adjusted(6, 0, 0, 0), Qt::AlignLeft | Qt::AlignVCenter,
                   QStringLiteral("%1 wins %2%").arg(theme::sideName(att)).arg(pa * 100, 0, 'f', 0));
    if (pa < 0.88)
        p.drawText(bar.adjusted(0, 0, -6, 0), Qt::AlignRight | Qt::AlignVCenter,
                   QStringLiteral("%1 wins %2%").arg(theme::sideName(def)).arg((1 - pa) * 100, 0, 'f', 0));
    p.setPen(QColor(0x6a, 0x55, 0x36));
    p.setFont(theme::sans(6.5));
    p.drawText(QRectF(left, bar.bottom() + 3, width, 14), Qt::AlignCenter,
               QStringLiteral("Exact odds over all 100 pairs of dice (12.26-12.28)%1")
                   .arg(o.oddsNoDefenderLoss
                            ? QStringLiteral(" · odds 1-4 or less: no defender leader loss (12.4)")
                            : QString()));
}

CombatDialog::CombatDialog(GameController* controller, QWidget* parent) : QDialog(parent), gc(controller) {
    setWindowTitle(QStringLiteral("Battle"));
    setModal(false);
    setObjectName(QStringLiteral("combatDialog"));
    auto* lay = new QVBoxLayout(this);
    lay->setContentsMargins(14, 12, 14, 12);
    lay->setSpacing(8);
    m_title = new QLabel(this);
    m_title->setFont(theme::serif(17, true));
    m_title->setAlignment(Qt::AlignHCenter);
    lay->addWidget(m_title);
    m_subtitle = new QLabel(this);
    m_subtitle->setAlignment(Qt::AlignHCenter);
    m_subtitle->setStyleSheet(QStringLiteral("QLabel { color: #6a4a20; }"));
    lay->addWidget(m_subtitle);
    // The headings keep their height; spare room (the odds hidden for a table battle) goes below.
    m_title->setSizePolicy(QSizePolicy::Preferred, QSizePolicy::Fixed);
    m_subtitle->setSizePolicy(QSizePolicy::Preferred, QSizePolicy::Fixed);
    auto* sides = new QHBoxLayout();
    sides->setSpacing(10);
    for (int i = 0; i < 2; ++i) {
        m_side[i] = new QLabel(this);
        m_side[i]->setTextFormat(Qt::RichText);
        m_side[i]->setWordWrap(true);
        m_side[i]->setAlignment(Qt::AlignTop | Qt::AlignLeft);
        m_side[i]->setMinimumWidth(270);
        sides->addWidget(m_side[i], 1);
    }
    lay->addLayout(sides);
    m_chart = new OddsChart(this);
    lay->addWidget(m_chart);
    m_result = new QLabel(this);
    m_result->setObjectName(QStringLiteral("combatResult"));
    m_result->setTextFormat(Qt::RichText);
    m_result->setWordWrap(true);
    m_result->setStyleSheet(
        QStringLiteral("QLabel { background: #fbf7ee; border: 1px solid #c8b088; border-radius: 6px;"
                       " padding: 8px; }"));
    lay->addWidget(m_result);
    m_decision = new QWidget(this);
    m_decisionLayout = new QVBoxLayout(m_decision);
    m_decisionLayout->setContentsMargins(0, 0, 0, 0);
    lay->addWidget(m_decision);
    m_close = new QPushButton(QStringLiteral("Close"), this);
    m_close->setObjectName(QStringLiteral("closeBattle"));
    connect(m_close, &QPushButton::clicked, this, &QDialog::hide);
    m_export = new QPushButton(QStringLiteral("Export battle…"), this);
    m_export->setObjectName(QStringLiteral("exportBattle"));
    m_export->setToolTip(QStringLiteral("This battle as a scenario for Tilly's Very Bad Day (miniatures)"));
    connect(m_export, &QPushButton::clicked, this, &CombatDialog::exportBattle);
    auto* bottom = new QHBoxLayout();
    bottom->addWidget(m_export);
    bottom->addStretch(1);
    bottom->addWidget(m_close);
    lay->addLayout(bottom);
    resize(720, 760);
}

QAbstractButton* CombatDialog::buttonFor(const Action& a) const {
    for (const auto& [b, act] : m_buttons)
        if (act == a)
            return b;
    return nullptr;
}

QString CombatDialog::sideHtml(int side) const {
    const GameData& d = gc->data();
    const GameState& s = gc->state();
    const CombatFrame& f = m_frame;
    const bool att = side == f.attacker;
    const auto& units = att ? f.attackUnits : f.defendUnits;
    const auto& leaders = att ? f.attackLeaders : f.defendLeaders;
    const int cmd = att ? f.attackCommander : f.defendCommander;
    // A table, not a div: Qt's rich text pads table cells only.
    QString h = QStringLiteral("<table width='100%' cellspacing='0' cellpadding='4' bgcolor='%1'><tr><td>"
                               "<span style='color:white; font-size:12pt; font-weight:bold'>%2</span>"
                               " &nbsp; <span style='color:white; font-size:8pt'>%3</span></td></tr></table>")
                    .arg(theme::sideColor(side).name(), theme::sideName(side),
                         att ? (f.sally ? QStringLiteral("ATTACKER · sally") : QStringLiteral("ATTACKER"))
                             : QStringLiteral("DEFENDER"));
    h += QStringLiteral("<table width='100%' cellspacing='0' cellpadding='2'>");
    for (int l : leaders) {
        const Leader& ld = d.leaders[l];
        const bool dead = s.leaders[static_cast<size_t>(l)].status != LeaderStatus::InPlay;
        h += QStringLiteral("<tr><td><b>%1</b>%2%3</td><td align='right' nowrap>%4-%5-%6 · loss %7</td></tr>")
                 .arg(ld.name.toHtmlEscaped(), QString(ld.stars, QChar(0x2605)),
                      l == cmd ? QStringLiteral(" <i>(commands)</i>") : QString())
                 .arg(ld.activation)
                 .arg(ld.leadership)
                 .arg(ld.battle)
                 .arg(ld.loss);
        if (dead)
            h += QStringLiteral("<tr><td colspan='2' style='color:#a02020'>&nbsp;&nbsp;lost</td></tr>");
    }
    int cf = 0;
    for (int u : units) {
        const UnitState& us = s.units[static_cast<size_t>(u)];
        const bool gone = us.loc < 0 || us.steps == 0;
        const int ucf = gone ? 0 : unitCf(d, s, u);
        cf += ucf;
        h += QStringLiteral("<tr><td%1>%2</td><td align='right' nowrap>%3</td></tr>")
                 .arg(gone ? QStringLiteral(" style='color:#a08a70; text-decoration:line-through'")
                           : QString(),
                      unitName(d, s, u).toHtmlEscaped(),
                      gone ? QStringLiteral("eliminated")
                           : QStringLiteral("CF %1 · LF %2").arg(ucf).arg(unitLf(d, s, u)));
    }
    h += QStringLiteral("</table><hr>");
    const CombatOdds& o = m_odds;
    h += QStringLiteral("<b>Strength %1</b> → Fire Column <b>%2</b>%3<br>")
             .arg(o.strength[side])
             .arg(o.columnLabel[side].toHtmlEscaped())
             .arg(o.shift[side]
                      ? QStringLiteral(" (shifted %1%2)").arg(o.shift[side] > 0 ? "+" : "").arg(o.shift[side])
                      : QString());
    h += QStringLiteral("<b>DRM %1%2</b>").arg(o.drm[side] >= 0 ? "+" : "").arg(o.drm[side]);
    QStringList parts;
    for (const auto& [what, v] : o.drmParts[side])
        parts << QStringLiteral("%1 %2%3").arg(what.toHtmlEscaped()).arg(v >= 0 ? "+" : "").arg(v);
    if (!parts.isEmpty())
        h += QStringLiteral(": ") + parts.join(QStringLiteral(", "));
    h += QStringLiteral("<br>Cards: ");
    QStringList cards;
    for (int16_t c : f.cards[side])
        cards << QStringLiteral("%1 “%2”").arg(d.cards[c].id, d.cards[c].title.toHtmlEscaped());
    h += cards.isEmpty() ? QStringLiteral("<i>none</i>") : cards.join(QStringLiteral(", "));
    Q_UNUSED(cf);
    return h;
}

bool CombatDialog::refresh() {
    m_buttons.clear();
    m_lossRadios.clear();
    m_takeLosses = nullptr;
    m_tableResult = nullptr;
    m_tableCheck = nullptr;
    if (!gc->hasGame()) {
        m_inBattle = false;
        return false;
    }
    const GameState& s = gc->state();
    const GameData& d = gc->data();
    const auto& log = gc->log();
    const CombatFrame* f = nullptr;
    if (!s.frames.empty())
        f = std::get_if<CombatFrame>(&s.frames.back());
    if (f) {
        const bool fresh = !m_inBattle || f->city != m_frame.city || f->attacker != m_frame.attacker;
        if (fresh) {
            m_logFrom = static_cast<qsizetype>(log.size());
            for (qsizetype i = static_cast<qsizetype>(log.size()) - 1; i >= 0; --i)
                if (log[static_cast<size_t>(i)].text.startsWith(QLatin1String("12.2 battle at"))) {
                    m_logFrom = i;
                    break;
                }
            m_logTo = -1;
        }
        m_inBattle = true;
        m_seen = true;
        m_frame = *f;
        if (f->roll[0] < 0 && f->roll[1] < 0) {
            m_odds = computeCombatOdds(d, s, *f);
            m_oddsFromBeforeDice = true;
        }
    } else {
        if (m_inBattle)
            m_logTo = static_cast<qsizetype>(log.size());
        m_inBattle = false;
    }
    m_export->setEnabled(m_inBattle); // the combat about to be resolved
    if (!m_seen)
        return false;

    const QString where = cityName(d, m_frame.city);
    m_title->setText(QStringLiteral("Battle at %1").arg(where));
    m_subtitle->setText(
        QStringLiteral("Turn %1 (%2) · %3 attacks%4")
            .arg(s.turn)
            .arg(theme::turnYears(s.turn), theme::sideName(m_frame.attacker),
                 m_frame.relief ? QStringLiteral(" to relieve the siege (13.15)") : QString()));
    setWindowTitle(QStringLiteral("Battle at %1").arg(where));
    for (int side : {0, 1}) {
        const int col = side == m_frame.attacker ? 0 : 1;
        m_side[col]->setText(sideHtml(side));
        m_side[col]->setStyleSheet(
            QStringLiteral("QLabel { background: %1; border: 2px solid %2; border-radius: 6px;"
                           " padding: 4px; }")
                .arg(QColor(0xfb, 0xf7, 0xee).name(), theme::sideColor(side).name()));
    }
    m_chart->setOdds(m_odds, m_oddsFromBeforeDice);
    // Linked battles: once the battle goes to the table, the CRT's odds are not what decides it.
    const bool onTable = m_frame.table == kBattlesTvbd || m_frame.table == kBattlesTercios;
    const bool answering = std::any_of(gc->legal().begin(), gc->legal().end(), [](const Action& a) {
        return a.kind == ActionKind::Choose && a.target == kBattleAccept;
    });
    m_chart->setVisible(!onTable || answering);

    // Results: from the frame while it lasts, then from the battle's log lines.
    const qsizetype to = m_logTo >= 0 ? m_logTo : static_cast<qsizetype>(log.size());
    QStringList lines;
    static const QRegularExpression rollRe(
        QStringLiteral("^12\\.26 (Catholic|Protestant): (\\d+) CF on column (\\S+), roll (\\d+) ([+-]\\d+) = "
                       "(\\d+): Loss Number (\\d+)"));
    static const QRegularExpression winRe(QStringLiteral("^12\\.28 (Catholic|Protestant) wins"));
    QString dice, winner;
    for (qsizetype i = m_logFrom; i < to && i < static_cast<qsizetype>(log.size()); ++i) {
        const QString& t = log[static_cast<size_t>(i)].text;
        if (i > m_logFrom && t.startsWith(QLatin1String("12.2 battle at")))
            break;
        const auto m = rollRe.match(t);
        if (m.hasMatch())
            dice += QStringLiteral(
                        "<p><b style='color:%1'>%2</b> rolls <b style='font-size:14pt'>%3</b> %4 = %5 on "
                        "column %6: <b>Loss Number %7</b> inflicted</p>")
                        .arg(theme::sideColor(m.captured(1) == QLatin1String("Catholic") ? 0 : 1).name(),
                             m.captured(1), m.captured(4), m.captured(5), m.captured(6), m.captured(3),
                             m.captured(7));
        const auto w = winRe.match(t);
        if (w.hasMatch())
            winner = w.captured(1);
        lines << t.toHtmlEscaped();
    }
    QString html;
    if (!winner.isEmpty())
        html +=
            QStringLiteral("<p style='font-size:13pt'><b>The %1 army wins the battle.</b></p>").arg(winner);
    html += dice;
    if (dice.isEmpty() && onTable && !answering)
        html += QStringLiteral("<i>This battle is fought on the table (%1): the attacker enters its result — "
                               "auto-resolved on screen or from a real table — and the defender confirms it; "
                               "then the losses (12.31), leaders (12.4) and retreat (12.5) as after the "
                               "dice.</i>")
                    .arg(m_frame.table == kBattlesTercios ? QStringLiteral("Brevis Editio Tercios")
                                                          : QStringLiteral("Tilly's Very Bad Day"));
    else if (dice.isEmpty())
        html += QStringLiteral(
            "<i>The dice are rolled once both sides have played or declined combat cards.</i>");
    else
        html += QStringLiteral("<p style='color:#6a5536; font-size:8pt'>%1</p>")
                    .arg(lines.join(QStringLiteral("<br>")));
    m_result->setText(html);
    rebuildDecision();
    // Word-wrapped labels would be squeezed below their text's height: they keep it, and the dialog grows.
    const int colW = std::max(300, (width() - 40) / 2);
    for (QLabel* l : {m_side[0], m_side[1]})
        l->setMinimumHeight(l->heightForWidth(l->width() > 100 ? l->width() : colW));
    m_result->setMinimumHeight(
        m_result->heightForWidth(m_result->width() > 100 ? m_result->width() : width() - 28));
    return m_inBattle;
}

void CombatDialog::rebuildDecision() {
    QLayoutItem* it;
    while ((it = m_decisionLayout->takeAt(0)) != nullptr) {
        if (it->widget())
            it->widget()->deleteLater();
        delete it;
    }
    m_close->setEnabled(true);
    if (!m_inBattle) {
        m_close->setProperty("primary", true);
        m_close->style()->unpolish(m_close);
        m_close->style()->polish(m_close);
        return;
    }
    const int actor = gc->actor();
    const auto& legal = gc->legal();
    auto* head = new QLabel(m_decision);
    head->setFont(theme::sans(9, true));
    head->setStyleSheet(QStringLiteral("QLabel { color: %1; }").arg(theme::sideDark(actor).name()));
    m_decisionLayout->addWidget(head);
    if (legal.empty())
        return;
    const Action& first = legal.front();
    if (first.kind == ActionKind::Losses) {
        head->setText(
            QStringLiteral(
                "%1: take your losses (12.31 — as close to the Loss Number as possible, never more)")
                .arg(theme::sideName(actor)));
        auto* group = new QButtonGroup(m_decision);
        for (size_t i = 0; i < legal.size(); ++i) {
            auto* rb = new QRadioButton(gc->describe(legal[i]), m_decision);
            rb->setProperty("index", static_cast<int>(i));
            group->addButton(rb);
            m_decisionLayout->addWidget(rb);
            m_lossRadios << rb;
            m_buttons.append(qMakePair(static_cast<QAbstractButton*>(rb), legal[i]));
        }
        m_lossRadios.front()->setChecked(true);
        m_takeLosses = new QPushButton(QStringLiteral("Take these losses"), m_decision);
        m_takeLosses->setObjectName(QStringLiteral("takeLosses"));
        m_takeLosses->setProperty("primary", true);
        connect(m_takeLosses, &QPushButton::clicked, this, [this]() {
            for (QRadioButton* rb : m_lossRadios)
                if (rb->isChecked()) {
                    emit submitAction(gc->legal()[static_cast<size_t>(rb->property("index").toInt())]);
                    return;
                }
        });
        m_decisionLayout->addWidget(m_takeLosses);
    } else if (isTableResultDecision(legal)) {
        // Linked battles: thousands of "battle-result" actions; the tabletop result dialog enters one.
        head->setText(QStringLiteral("%1: the battle is fought on the table — enter its result")
                          .arg(theme::sideName(actor)));
        m_tableResult = new QPushButton(QStringLiteral("Tabletop result…"), m_decision);
        m_tableResult->setObjectName(QStringLiteral("openTableResult"));
        m_tableResult->setProperty("primary", true);
        m_tableResult->setToolTip(
            QStringLiteral("Auto-resolve the battle on screen, enter the result of a real "
                           "table, or export the battle"));
        connect(m_tableResult, &QPushButton::clicked, this, &CombatDialog::openTableResult);
        m_decisionLayout->addWidget(m_tableResult);
    } else {
        auto has = [&legal](int16_t target) {
            return std::any_of(legal.begin(), legal.end(), [target](const Action& a) {
                return a.kind == ActionKind::Choose && a.target == target;
            });
        };
        const bool confirm = has(kBattleConfirm);
        if (confirm) {
            m_tableCheck = new QLabel(m_decision);
            m_tableCheck->setObjectName(QStringLiteral("tableCheck"));
            m_tableCheck->setTextFormat(Qt::RichText);
            m_tableCheck->setWordWrap(true);
            m_tableCheck->setText(enteredTableResultHtml(gc->data(), gc->state(),
                                                         battle::enteredAttachment(gc->actionTexts())));
            m_decisionLayout->addWidget(m_tableCheck);
        }
        if (confirm)
            head->setText(
                QStringLiteral("%1: confirm the tabletop result, or dispute it (it is entered again)")
                    .arg(theme::sideName(actor)));
        else if (has(kBattleTvbd))
            head->setText(
                QStringLiteral("%1: fight this battle on the table? Ask for it (the defender decides), "
                               "or keep the Combat Results Table")
                    .arg(theme::sideName(actor)));
        else if (has(kBattleAccept))
            head->setText(
                QStringLiteral("%1: %2 asks to fight this battle on the table (%3). Accept, or keep "
                               "the Combat Results Table?")
                    .arg(theme::sideName(actor), theme::sideName(m_frame.attacker),
                         m_frame.table == kBattlesTercios ? QStringLiteral("Brevis Editio Tercios")
                                                          : QStringLiteral("Tilly's Very Bad Day")));
        else if (has(kBattleLeadersDone))
            head->setText(
                QStringLiteral("%1: the leaders whose Commander fell on the table, one at a time, then "
                               "“No more leaders lost”")
                    .arg(theme::sideName(actor)));
        else if (first.kind == ActionKind::Retreat)
            head->setText(QStringLiteral("%1: retreat (12.5) — or click an orange-ringed space")
                              .arg(theme::sideName(actor)));
        else if (first.kind == ActionKind::Pass || first.kind == ActionKind::CombatCard)
            head->setText(
                QStringLiteral("%1: play combat cards (12.23, at most two)?").arg(theme::sideName(actor)));
        else
            head->setText(QStringLiteral("%1 decides").arg(theme::sideName(actor)));
        head->setWordWrap(true);
        auto* row = new QHBoxLayout();
        for (const Action& a : legal) {
            auto* b = new QPushButton(gc->describe(a), m_decision);
            b->setProperty("primary", a.kind != ActionKind::Pass);
            connect(b, &QPushButton::clicked, this, [this, a]() { emit submitAction(a); });
            row->addWidget(b);
            m_buttons.append(qMakePair(static_cast<QAbstractButton*>(b), a));
        }
        auto* w = new QWidget(m_decision);
        w->setLayout(row);
        m_decisionLayout->addWidget(w);
    }
    m_close->setEnabled(false);
}

} // namespace wp
