#include "inspector.h"

#include "describe.h"
#include "rules/internal.h"
#include "theme.h"

#include <QTextBrowser>
#include <QVBoxLayout>

namespace wp {

using namespace rules;

StackInspector::StackInspector(const GameData& gameData, QWidget* parent) : QDialog(parent), d(gameData) {
    setObjectName(QStringLiteral("stackInspector"));
    setWindowFlag(Qt::Tool, true);
    auto* lay = new QVBoxLayout(this);
    lay->setContentsMargins(8, 8, 8, 8);
    m_text = new QTextBrowser(this);
    m_text->setOpenLinks(false);
    lay->addWidget(m_text);
    resize(520, 420);
}

QString StackInspector::html() const {
    return m_text->toHtml();
}

void StackInspector::showStack(const MapStack& st, const GameState* s) {
    const QString where = st.city >= 0  ? d.cities[st.city].name
                          : st.box >= 0 ? d.boxes[st.box].name
                                        : QString();
    setWindowTitle(QStringLiteral("%1 at %2").arg(theme::sideName(st.side), where));
    QString h = QStringLiteral("<h2 style='margin:0; color:%1'>%2 forces at %3</h2>")
                    .arg(theme::sideDark(st.side).name(), theme::sideName(st.side), where.toHtmlEscaped());
    h += QStringLiteral("<p style='color:#6a5536'>%1Combat strength %2 · %3 unit%4</p>")
             .arg(st.inside ? QStringLiteral("Inside the fortress · ") : QString())
             .arg(st.combatFactor())
             .arg(st.unitCount())
             .arg(st.unitCount() == 1 ? "" : "s");
    const QString th = QStringLiteral("style='background:#e4d6b6; padding:3px; text-align:left'");
    // Leaders.
    QString leaders, units;
    for (const MapCounter& c : st.counters) {
        if (c.leader) {
            const int l = c.pieces.isEmpty() ? -1 : c.pieces.front() - kLeaderBase;
            const Leader* ld = nullptr;
            if (l >= 0 && l < d.leaders.size())
                ld = &d.leaders[l];
            else
                for (const Leader& x : d.leaders)
                    if (x.counterName == c.label)
                        ld = &x;
            if (!ld)
                continue;
            leaders += QStringLiteral("<tr><td style='background:%1; color:%2; padding:2px "
                                      "6px; font-weight:bold'>%3</td>"
                                      "<td>%4</td><td align='center'>%5</td><td align='center'>%6</td>"
                                      "<td align='center'>%7</td><td align='center'>%8</td><td>%9</td></tr>")
                           .arg(c.color, c.textColor, ld->name.toHtmlEscaped(),
                                d.nationalities[ld->nationality].name)
                           .arg(ld->activation)
                           .arg(ld->leadership)
                           .arg(ld->battle)
                           .arg(ld->loss)
                           .arg(ld->stars ? QString(ld->stars, QChar(0x2605)) + QStringLiteral(" Dynamic")
                                          : QString());
        } else if (s && !c.pieces.isEmpty()) {
            for (int u : c.pieces) {
                const UnitState& us = s->units[static_cast<size_t>(u)];
                const UnitType& t = d.unitTypes[us.type];
                units += QStringLiteral(
                             "<tr><td style='background:%1; color:%2; padding:2px "
                             "6px; font-weight:bold'>%3</td>"
                             "<td align='center'>%4</td><td align='center'>%5</td><td align='center'>%6</td>"
                             "<td align='center'>%7</td><td>%8</td></tr>")
                             .arg(c.color, c.textColor, unitName(d, *s, u).toHtmlEscaped())
                             .arg(us.steps == 2 ? QStringLiteral("full") : QStringLiteral("reduced"))
                             .arg(unitCf(d, *s, u))
                             .arg(t.lf)
                             .arg(t.ma)
                             .arg((us.flags & kUnpaid) ? QStringLiteral("<b style='color:#a02020'>unpaid</b>")
                                                       : QStringLiteral("paid"));
            }
        } else {
            units += QStringLiteral(
                         "<tr><td style='background:%1; color:%2; padding:2px "
                         "6px; font-weight:bold'>%3</td>"
                         "<td align='center'>%4</td><td align='center'>%5</td><td colspan='3'></td></tr>")
                         .arg(c.color, c.textColor,
                              QStringLiteral("%1 %2").arg(c.label, c.sublabel).toHtmlEscaped(),
                              c.reduced ? QStringLiteral("reduced") : QStringLiteral("full"))
                         .arg(c.cf);
        }
    }
    if (!leaders.isEmpty())
        h += QStringLiteral(
                 "<h3>Leaders</h3><table width='100%' cellspacing='0' cellpadding='3'>"
                 "<tr><th %1>Leader</th><th %1>Nation</th><th %1>Activation</th><th %1>Leadership</th>"
                 "<th %1>Battle</th><th %1>Loss</th><th %1></th></tr>%2</table>")
                 .arg(th, leaders);
    if (!units.isEmpty())
        h += QStringLiteral("<h3>Combat units</h3><table width='100%' cellspacing='0' cellpadding='3'>"
                            "<tr><th %1>Unit</th><th %1>Steps</th><th %1>CF</th><th %1>LF</th><th %1>MA</th>"
                            "<th %1>Pay</th></tr>%2</table>")
                 .arg(th, units);
    m_text->setHtml(h);
    show();
    raise();
}

} // namespace wp
