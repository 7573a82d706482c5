#include "recordspanel.h"

#include "rules/internal.h"
#include "theme.h"

#include <QJsonArray>
#include <QJsonObject>
#include <QLinearGradient>
#include <QPainter>
#include <QPainterPath>

namespace wp {

using namespace rules;

namespace {

constexpr int kWidth = 340;

// Collects "vpAtLeast"/"vpAtMost" thresholds from a scenario's victory conditions.
void collectThresholds(const QJsonValue& v, QList<QPair<int, QString>>& out, const QString& who) {
    if (v.isArray()) {
        for (const QJsonValue& x : v.toArray())
            collectThresholds(x, out, who);
        return;
    }
    if (!v.isObject())
        return;
    const QJsonObject o = v.toObject();
    QString winner = who;
    if (o.contains(QStringLiteral("winner")))
        winner = o.value(QStringLiteral("winner")).toString();
    if (o.contains(QStringLiteral("vpAtLeast")))
        out << qMakePair(o.value(QStringLiteral("vpAtLeast")).toInt(), QStringLiteral("≥"));
    if (o.contains(QStringLiteral("vpAtMost")))
        out << qMakePair(o.value(QStringLiteral("vpAtMost")).toInt(), QStringLiteral("≤"));
    for (auto it = o.begin(); it != o.end(); ++it)
        if (it.key() != QLatin1String("optional"))
            collectThresholds(it.value(), out, winner);
}

// An event reminder in words: "P5.papalAidResumesTurn" 3 -> "P5 Gregory XV Becomes Pope: papal aid resumes
// turn 3".
QString reminderText(const GameData& d, const QString& key, int value) {
    const qsizetype dot = key.indexOf(QLatin1Char('.'));
    QString who = dot > 0 ? key.left(dot) : QString();
    const QString name = dot > 0 ? key.mid(dot + 1) : key;
    for (const Card& c : d.cards)
        if (c.id == who) {
            who = QStringLiteral("%1 %2").arg(c.id, c.title);
            break;
        }
    QString words;
    for (QChar ch : name) {
        if (ch.isUpper() && !words.isEmpty())
            words += QLatin1Char(' ');
        words += ch.toLower();
    }
    const QString what = words.endsWith(QLatin1String("turn")) ? QStringLiteral("%1 %2").arg(words).arg(value)
                         : value == 1                          ? words
                                      : QStringLiteral("%1: %2").arg(words).arg(value);
    return who.isEmpty() ? what : QStringLiteral("%1 — %2").arg(who, what);
}

QString popeName(const QString& id) {
    if (id.isEmpty())
        return QStringLiteral("—");
    QStringList parts = id.split(QLatin1Char('-'));
    for (QString& w : parts) {
        bool roman = true;
        for (QChar ch : w)
            roman &= QStringLiteral("ivxlc").contains(ch);
        w = roman ? w.toUpper() : w.left(1).toUpper() + w.mid(1);
    }
    return parts.join(QLatin1Char(' '));
}

} // namespace

RecordsPanel::RecordsPanel(const GameData& gameData, QWidget* parent) : QWidget(parent), d(gameData) {
    setMinimumWidth(kWidth);
    setAttribute(Qt::WA_OpaquePaintEvent, false);
}

QSize RecordsPanel::sizeHint() const {
    return QSize(kWidth, 640);
}

QSize RecordsPanel::minimumSizeHint() const {
    return QSize(kWidth, 640);
}

void RecordsPanel::setState(const GameState* s, int actor) {
    m_has = s != nullptr;
    m_actor = actor;
    if (s) {
        m_state = *s;
        m_shown.vp = s->vp;
        m_shown.turn = s->turn;
        m_shown.wallenstein = s->wallensteinTrack;
        m_shown.dutchWar = s->dutchWar;
        for (int side : {0, 1}) {
            m_shown.rounds[side] = s->roundsUsed[side];
            m_shown.aid[side] = s->aidPoints[side];
            m_shown.electors[side] = electorsControlled(d, *s, side);
        }
        m_shown.pope = popeName(s->pope);
        m_shown.electorate = s->electorate >= 0 ? d.areas[s->electorate].name : QString();
        m_shown.valTellineOpen = s->valTellineOpen;
        m_thresholds.clear();
        if (const Scenario* sc = d.scenario(s->scenario)) {
            collectThresholds(sc->victory.value(QStringLiteral("sudden")), m_thresholds, QString());
            collectThresholds(sc->victory.value(QStringLiteral("final")), m_thresholds, QString());
        }
    }
    update();
}

void RecordsPanel::paintEvent(QPaintEvent*) {
    QPainter p(this);
    p.setRenderHint(QPainter::Antialiasing, true);
    p.setRenderHint(QPainter::TextAntialiasing, true);
    const QRectF all = rect();
    QLinearGradient bg(all.topLeft(), all.bottomLeft());
    bg.setColorAt(0, QColor(0xf7, 0xf0, 0xde));
    bg.setColorAt(1, QColor(0xea, 0xdc, 0xbb));
    p.fillRect(all, bg);
    if (!m_has) {
        p.setPen(QColor(0x8a, 0x75, 0x56));
        p.setFont(theme::serif(11, false));
        p.drawText(all, Qt::AlignCenter, QStringLiteral("No game in progress"));
        return;
    }
    const GameState& s = m_state;
    const double L = 12, W = width() - 24;
    double y = 8;
    const QColor ink = theme::ink();
    const QColor faint(0x8a, 0x75, 0x56);

    auto heading = [&](const QString& t) {
        p.setPen(QColor(0x6a, 0x4a, 0x20));
        p.setFont(theme::sans(7, true));
        p.drawText(QRectF(L, y, W, 12), Qt::AlignLeft | Qt::AlignVCenter, t.toUpper());
        p.setPen(QPen(QColor(0xc8, 0xb0, 0x84), 1));
        const double tw = QFontMetricsF(p.font()).horizontalAdvance(t.toUpper());
        p.drawLine(QPointF(L + tw + 6, y + 6.5), QPointF(L + W, y + 6.5));
        y += 15;
    };
    // A row of cells; `value` is marked with a disc.
    auto track = [&](int from, int to, int value, double cellW, double h, auto cellColor, auto label) {
        const int n = to - from + 1;
        const double total = cellW * n;
        const double x0 = L + (W - total) / 2;
        for (int v = from; v <= to; ++v) {
            const QRectF c(x0 + (v - from) * cellW, y, cellW - 1, h);
            p.setPen(QPen(QColor(0x8a, 0x75, 0x56), 0.8));
            p.setBrush(cellColor(v));
            p.drawRect(c);
            p.setPen(v == value ? Qt::white : ink);
            p.setFont(theme::sans(6.5, v == value));
            if (v == value) {
                p.setPen(QPen(Qt::white, 1.2));
                p.setBrush(QColor(0x2b, 0x1f, 0x12));
                p.drawEllipse(c.center(), h * 0.42, h * 0.42);
                p.setPen(Qt::white);
            }
            p.drawText(c, Qt::AlignCenter, label(v));
        }
        y += h + 4;
    };

    // ---- Turn
    {
        p.setPen(ink);
        p.setFont(theme::serif(15, true));
        p.drawText(QRectF(L, y, W, 24), Qt::AlignLeft | Qt::AlignVCenter,
                   QStringLiteral("Turn %1").arg(s.turn));
        p.setFont(theme::serif(11));
        p.setPen(QColor(0x6a, 0x4a, 0x20));
        p.drawText(QRectF(L, y, W, 24), Qt::AlignRight | Qt::AlignVCenter, theme::turnYears(s.turn));
        y += 26;
        const double cw = W / 14.0;
        for (int t = 1; t <= 14; ++t) {
            const QRectF c(L + (t - 1) * cw, y, cw - 2, 16);
            const bool inScenario = t >= s.firstTurn && t <= s.lastTurn;
            p.setPen(QPen(QColor(0x8a, 0x75, 0x56), 0.8));
            p.setBrush(t == s.turn  ? theme::gold()
                       : t < s.turn ? QColor(0xd8, 0xc8, 0xa4)
                       : inScenario ? QColor(0xfb, 0xf6, 0xea)
                                    : QColor(0xe4, 0xda, 0xc6));
            p.drawRoundedRect(c, 2, 2);
            p.setPen(inScenario ? ink : faint);
            p.setFont(theme::sans(6.5, t == s.turn));
            p.drawText(c, Qt::AlignCenter, QString::number(t));
        }
        y += 20;
        p.setPen(faint);
        p.setFont(theme::sans(7));
        QString phase;
        if (!s.frames.empty())
            if (const auto* t = std::get_if<TurnFrame>(&s.frames.front()))
                phase = t->phase == Phase::Action        ? QStringLiteral("Action Phase")
                        : t->phase == Phase::Wallenstein ? QStringLiteral("Wallenstein Phase")
                        : t->phase == Phase::Draw        ? QStringLiteral("Card Draw Phase")
                        : t->phase == Phase::Pay         ? QStringLiteral("Pay Phase")
                        : t->phase == Phase::EndOfTurn   ? QStringLiteral("End of Turn")
                        : t->phase == Phase::Recovery    ? QStringLiteral("Recovery Phase")
                                                         : QStringLiteral("End Phase");
        if (s.gameOver)
            phase = s.result;
        p.drawText(QRectF(L, y, W, 12), Qt::AlignLeft | Qt::AlignVCenter, phase);
        y += 16;
    }

    // ---- VP
    heading(QStringLiteral("Victory Points"));
    {
        const QRectF medal(L, y, 58, 44);
        QLinearGradient g(medal.topLeft(), medal.bottomLeft());
        g.setColorAt(0, QColor(0xc0, 0x35, 0x3e));
        g.setColorAt(1, QColor(0x7a, 0x12, 0x18));
        p.setPen(QPen(QColor(0x4a, 0x0a, 0x0e), 1.2));
        p.setBrush(g);
        p.drawRoundedRect(medal, 6, 6);
        p.setPen(Qt::white);
        p.setFont(theme::serif(20, true));
        p.drawText(medal.adjusted(0, -6, 0, 0), Qt::AlignCenter, QString::number(s.vp));
        p.setFont(theme::sans(5.5, true));
        p.drawText(medal.adjusted(0, 28, 0, 0), Qt::AlignHCenter | Qt::AlignTop,
                   QStringLiteral("CATHOLIC VP"));
        // Gauge 0..60: Protestant on the left, Catholic on the right.
        const double gx = L + 68, gw = W - 68, gy = y + 14, gh = 12;
        const int maxVp = 60;
        auto xOf = [&](int v) { return gx + gw * std::clamp(v, 0, maxVp) / maxVp; };
        QLinearGradient gg(QPointF(gx, 0), QPointF(gx + gw, 0));
        gg.setColorAt(0, theme::sideColor(1));
        gg.setColorAt(0.5, QColor(0xe8, 0xe0, 0xcc));
        gg.setColorAt(1, theme::sideColor(0));
        p.setPen(QPen(QColor(0x5a, 0x45, 0x26), 1));
        p.setBrush(gg);
        p.drawRoundedRect(QRectF(gx, gy, gw, gh), 6, 6);
        p.setFont(theme::sans(6));
        for (const auto& [v, label] : m_thresholds) {
            if (v < 0 || v > maxVp)
                continue;
            const double x = xOf(v);
            p.setPen(QPen(QColor(0x2b, 0x1f, 0x12), 1.2));
            p.drawLine(QPointF(x, gy - 3), QPointF(x, gy + gh + 3));
            p.setPen(QColor(0x4a, 0x3a, 0x24));
            p.drawText(QRectF(x - 14, gy + gh + 3, 28, 10), Qt::AlignCenter, QString::number(v));
        }
        const double mx = xOf(s.vp);
        QPainterPath pin;
        pin.moveTo(mx, gy + 2);
        pin.lineTo(mx - 6, gy - 8);
        pin.lineTo(mx + 6, gy - 8);
        pin.closeSubpath();
        p.setPen(QPen(Qt::white, 1));
        p.setBrush(QColor(0x2b, 0x1f, 0x12));
        p.drawPath(pin);
        p.setPen(faint);
        p.setFont(theme::sans(6));
        p.drawText(QRectF(gx, gy - 14, gw, 10), Qt::AlignLeft | Qt::AlignVCenter,
                   QStringLiteral("◀ Protestant"));
        p.drawText(QRectF(gx, gy - 14, gw, 10), Qt::AlignRight | Qt::AlignVCenter,
                   QStringLiteral("Catholic ▶"));
        y += 52;
    }

    // ---- Card rounds and aid
    heading(QStringLiteral("Card rounds · Foreign Aid"));
    for (int side : {1, 0}) {
        const bool acting = side == m_actor;
        p.setPen(theme::sideDark(side));
        p.setFont(theme::sans(8, true));
        p.drawText(QRectF(L, y, 90, 18), Qt::AlignLeft | Qt::AlignVCenter, theme::sideName(side));
        for (int r = 0; r < 6; ++r) {
            const QPointF c(L + 100 + r * 19, y + 9);
            const bool used = r < s.roundsUsed[side];
            const bool next = acting && r == s.roundsUsed[side];
            p.setPen(QPen(next ? theme::gold() : theme::sideDark(side), next ? 2.4 : 1));
            p.setBrush(used ? theme::sideColor(side) : QColor(0xfb, 0xf6, 0xea));
            p.drawEllipse(c, 7, 7);
            p.setPen(used ? Qt::white : faint);
            p.setFont(theme::sans(6, true));
            p.drawText(QRectF(c.x() - 7, c.y() - 7, 14, 14), Qt::AlignCenter, QString::number(r + 1));
        }
        // Aid: a coin with the points.
        const QPointF coin(L + W - 40, y + 9);
        QRadialGradient g(coin - QPointF(3, 3), 12);
        g.setColorAt(0, QColor(0xff, 0xf0, 0xa8));
        g.setColorAt(1, QColor(0xb8, 0x86, 0x10));
        p.setPen(QPen(QColor(0x6a, 0x4a, 0x05), 1));
        p.setBrush(g);
        p.drawEllipse(coin, 9, 9);
        p.setPen(QColor(0x3a, 0x24, 0x05));
        p.setFont(theme::sans(7.5, true));
        p.drawText(QRectF(coin.x() - 9, coin.y() - 9, 18, 18), Qt::AlignCenter,
                   QString::number(s.aidPoints[side]));
        p.setPen(faint);
        p.setFont(theme::sans(6));
        p.drawText(QRectF(coin.x() + 11, y, 30, 18), Qt::AlignLeft | Qt::AlignVCenter,
                   s.aidCardPlayed[side] ? QStringLiteral("AP ✓") : QStringLiteral("AP"));
        y += 21;
    }
    {
        p.setPen(faint);
        p.setFont(theme::sans(6.5));
        QString donors = QStringLiteral("Aid from: %1 · %2")
                             .arg(s.aidSources[1].isEmpty() ? QStringLiteral("—")
                                                            : s.aidSources[1].join(QStringLiteral(", ")),
                                  s.aidSources[0].isEmpty() ? QStringLiteral("—")
                                                            : s.aidSources[0].join(QStringLiteral(", ")));
        p.drawText(QRectF(L, y, W, 12), Qt::AlignLeft | Qt::AlignVCenter,
                   QFontMetricsF(p.font()).elidedText(donors, Qt::ElideRight, W));
        y += 16;
    }

    // ---- Wallenstein
    heading(QStringLiteral("Wallenstein track"));
    {
        const int wl = d.leader(QStringLiteral("wallenstein"));
        QString status;
        if (wl >= 0) {
            const LeaderState& ls = s.leaders[static_cast<size_t>(wl)];
            status = ls.status == LeaderStatus::InPlay    ? QStringLiteral("in play")
                     : ls.status == LeaderStatus::Aside   ? QStringLiteral("dismissed")
                     : ls.status == LeaderStatus::Removed ? QStringLiteral("assassinated")
                     : ls.status == LeaderStatus::Dead    ? QStringLiteral("dead")
                                                          : QStringLiteral("not yet in play");
        }
        track(
            0, 20, s.wallensteinTrack, W / 21.0, 15,
            [&](int v) { return v >= 16 ? QColor(0xf0, 0xc8, 0xb8) : QColor(0xfb, 0xf6, 0xea); },
            [](int v) { return QString::number(v); });
        p.setPen(faint);
        p.setFont(theme::sans(6.5));
        p.drawText(QRectF(L, y, W, 11), Qt::AlignLeft | Qt::AlignVCenter,
                   QStringLiteral("Wallenstein %1 · 20 = Protestant Major Victory").arg(status));
        y += 15;
    }

    // ---- Dutch War
    heading(QStringLiteral("Dutch War track"));
    track(
        -3, 5, s.dutchWar, W / 9.0, 15,
        [&](int v) {
            return v < 0   ? QColor(0xd6, 0xe2, 0xf4)
                   : v > 0 ? QColor(0xf4, 0xd6, 0xd2)
                           : QColor(0xfb, 0xf6, 0xea);
        },
        [](int v) { return v > 0 ? QStringLiteral("+%1").arg(v) : QString::number(v); });
    y += 2;

    // ---- Electors
    heading(QStringLiteral("Elector Control"));
    {
        struct E {
            QString name;
            int ctl;
        };
        QList<E> electors;
        for (qsizetype a = 0; a < d.areas.size(); ++a) {
            const Area& ar = d.areas[a];
            const bool palOrBav =
                ar.id == QLatin1String("lower-palatinate") || ar.id == QLatin1String("bavaria");
            if (palOrBav ? s.electorate == a : ar.elector)
                electors << E{ar.name, s.areas[static_cast<size_t>(a)].control};
        }
        for (qsizetype c = 0; c < d.cities.size(); ++c)
            if (d.cities[c].elector)
                electors << E{d.cities[c].name, effectiveCityControl(d, s, static_cast<int>(c))};
        const double cw = W / static_cast<double>(std::max<qsizetype>(1, electors.size()));
        for (qsizetype i = 0; i < electors.size(); ++i) {
            const QRectF c(L + static_cast<double>(i) * cw + 2, y, cw - 4, 30);
            QPainterPath shield;
            shield.moveTo(c.left() + 4, c.top());
            shield.lineTo(c.right() - 4, c.top());
            shield.lineTo(c.right() - 4, c.top() + 12);
            shield.quadTo(c.right() - 4, c.top() + 22, c.center().x(), c.top() + 26);
            shield.quadTo(c.left() + 4, c.top() + 22, c.left() + 4, c.top() + 12);
            shield.closeSubpath();
            const int ctl = electors[i].ctl;
            p.setPen(QPen(QColor(0x3a, 0x2a, 0x12), 1));
            p.setBrush(ctl == 0   ? theme::sideColor(0)
                       : ctl == 1 ? theme::sideColor(1)
                                  : QColor(0xd8, 0xd0, 0xbc));
            p.drawPath(shield);
            p.setPen(Qt::white);
            p.setFont(theme::sans(6, true));
            p.drawText(QRectF(c.left(), c.top() + 2, c.width(), 14), Qt::AlignCenter,
                       ctl == 0   ? QStringLiteral("C")
                       : ctl == 1 ? QStringLiteral("P")
                                  : QStringLiteral("–"));
            p.setPen(ink);
            p.setFont(theme::sans(5.5));
            p.drawText(QRectF(c.left() - 4, c.top() + 27, c.width() + 8, 10), Qt::AlignCenter,
                       QFontMetricsF(p.font()).elidedText(electors[i].name, Qt::ElideRight, c.width() + 8));
        }
        y += 40;
        p.setPen(faint);
        p.setFont(theme::sans(6.5));
        QString award;
        if (s.electorMajorityHolder >= 0)
            award = QStringLiteral(" · majority award: %1").arg(theme::sideName(s.electorMajorityHolder));
        p.drawText(QRectF(L, y, W, 11), Qt::AlignLeft | Qt::AlignVCenter,
                   QStringLiteral("Catholic %1 · Protestant %2%3")
                       .arg(m_shown.electors[0])
                       .arg(m_shown.electors[1])
                       .arg(award));
        y += 16;
    }

    // ---- Markers
    heading(QStringLiteral("Pope · Passes · Powers"));
    {
        auto fact = [&](double x, double w, const QString& label, const QString& value, QColor valueColor) {
            p.setPen(faint);
            p.setFont(theme::sans(6));
            p.drawText(QRectF(x, y, w, 10), Qt::AlignLeft | Qt::AlignVCenter, label.toUpper());
            p.setPen(valueColor);
            p.setFont(theme::sans(8, true));
            p.drawText(QRectF(x, y + 10, w, 14), Qt::AlignLeft | Qt::AlignVCenter,
                       QFontMetricsF(p.font()).elidedText(value, Qt::ElideRight, w));
        };
        const double cw = W / 3;
        fact(L, cw, QStringLiteral("Pope"), m_shown.pope, ink);
        fact(L + cw, cw, QStringLiteral("Val Telline"),
             s.valTellineOpen ? QStringLiteral("Open") : QStringLiteral("Closed"),
             s.valTellineOpen ? QColor(0x2e, 0x7d, 0x32) : QColor(0xa0, 0x20, 0x20));
        fact(L + 2 * cw, cw, QStringLiteral("Elector marker"), m_shown.electorate, ink);
        y += 28;
        QStringList war;
        if (s.denmarkInWar)
            war << QStringLiteral("Denmark");
        if (s.swedenInWar)
            war << QStringLiteral("Sweden");
        if (s.franceInWar)
            war << QStringLiteral("France");
        fact(L, cw * 2, QStringLiteral("At war for the Protestants"),
             war.isEmpty() ? QStringLiteral("none yet") : war.join(QStringLiteral(", ")), ink);
        fact(L + 2 * cw, cw, QStringLiteral("Hungary"),
             s.hungaryRebellion ? QStringLiteral("in Rebellion") : QStringLiteral("at peace"), ink);
        y += 30;
    }

    // ---- Decks
    heading(QStringLiteral("Decks"));
    {
        const QStringList names = {QStringLiteral("Early War"), QStringLiteral("Intervention"),
                                   QStringLiteral("Apocalypse")};
        const bool in[3] = {true, s.interventionAdded, s.apocalypseAdded};
        const double cw = W / 3;
        for (int k = 0; k < 3; ++k) {
            const QRectF c(L + k * cw + 2, y, cw - 4, 18);
            p.setPen(QPen(in[k] ? QColor(0x5a, 0x45, 0x26) : QColor(0xc0, 0xb0, 0x90), 1));
            p.setBrush(in[k] ? QColor(0xe9, 0xd8, 0xa8) : Qt::NoBrush);
            p.drawRoundedRect(c, 9, 9);
            p.setPen(in[k] ? ink : faint);
            p.setFont(theme::sans(7, in[k]));
            p.drawText(c, Qt::AlignCenter, names[k]);
        }
        y += 24;
        int removed[2] = {0, 0};
        for (size_t i = 0; i < s.cardPlace.size(); ++i)
            if (s.cardPlace[i] == CardPlace::Removed)
                ++removed[sideIndex(d.cards[static_cast<qsizetype>(i)].side)];
        for (int side : {1, 0}) {
            p.setPen(theme::sideDark(side));
            p.setFont(theme::sans(7, true));
            p.drawText(QRectF(L, y, 80, 13), Qt::AlignLeft | Qt::AlignVCenter, theme::sideName(side));
            p.setPen(ink);
            p.setFont(theme::sans(7));
            p.drawText(QRectF(L + 78, y, W - 78, 13), Qt::AlignLeft | Qt::AlignVCenter,
                       QStringLiteral("hand %1 · unplayed %2 · played %3 · removed %4")
                           .arg(s.hand[side].size())
                           .arg(s.drawPile[side].size())
                           .arg(s.playedPile[side].size())
                           .arg(removed[side]));
            y += 15;
        }
    }
    // The events' reminders ("P5.papalAidResumesTurn", "cardinalInfante"); not the engine's own bookkeeping
    // (the 19.8 keys, the effects' last turns "...@") nor a "...Turn" reminder whose turn has passed.
    QStringList reminders;
    for (auto it = s.markers.begin(); it != s.markers.end(); ++it) {
        const QString& key = it.key();
        const bool engineOwn = key.isEmpty() || key.front().isDigit() || key.contains(QLatin1Char('@'));
        if (engineOwn || (key.endsWith(QLatin1String("Turn")) && it.value() < s.turn))
            continue;
        reminders << reminderText(d, key, it.value());
    }
    if (!reminders.isEmpty()) {
        y += 4;
        heading(QStringLiteral("Reminders"));
        p.setPen(ink);
        p.setFont(theme::sans(6.5));
        for (const QString& text : reminders) {
            p.drawText(QRectF(L, y, W, 12), Qt::AlignLeft | Qt::AlignVCenter,
                       QFontMetrics(p.font()).elidedText(text, Qt::ElideRight, static_cast<int>(W)));
            y += 12;
        }
    }
    if (y + 8 > minimumHeight())
        setMinimumHeight(static_cast<int>(y + 8));
}

} // namespace wp
