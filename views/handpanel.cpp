#include "handpanel.h"

#include "cardpainter.h"
#include "theme.h"

#include <QHBoxLayout>
#include <QLinearGradient>
#include <QMouseEvent>
#include <QPainter>

namespace wp {

namespace {
constexpr int kGap = 10;
constexpr double kAspect = 26.0 / 18.0; // card height / width
} // namespace

OpponentHand::OpponentHand(QWidget* parent) : QWidget(parent) {
    setFixedWidth(120);
}

void OpponentHand::set(int side, int count, bool revealable) {
    m_side = side;
    m_count = count;
    m_revealable = revealable && side >= 0;
    setCursor(m_revealable ? Qt::PointingHandCursor : Qt::ArrowCursor);
    setToolTip(m_revealable ? QStringLiteral("The game is over: click to show these cards") : QString());
    update();
}

void OpponentHand::mousePressEvent(QMouseEvent* e) {
    if (m_revealable && e->button() == Qt::LeftButton) {
        emit clicked();
        e->accept();
        return;
    }
    QWidget::mousePressEvent(e);
}

void OpponentHand::paintEvent(QPaintEvent*) {
    QPainter p(this);
    p.setRenderHint(QPainter::Antialiasing, true);
    if (m_side < 0)
        return;
    const double w = 58, h = w * kAspect;
    const double top = 14;
    const int shown = std::min(m_count, 8);
    for (int i = 0; i < shown; ++i) {
        const double x = 14 + i * 4.0, y = top + i * 3.0;
        paintCardBack(p, QRectF(x, y, w, h), m_side);
    }
    p.setPen(QColor(0xf4, 0xec, 0xd8));
    p.setFont(theme::sans(8, true));
    const double ty = top + h + shown * 3.0 + 6;
    p.drawText(QRectF(0, ty, width(), 16), Qt::AlignHCenter | Qt::AlignVCenter, theme::sideName(m_side));
    p.setFont(theme::sans(8));
    p.drawText(QRectF(0, ty + 15, width(), 16), Qt::AlignHCenter | Qt::AlignVCenter,
               QStringLiteral("%1 card%2, %3")
                   .arg(m_count)
                   .arg(m_count == 1 ? "" : "s")
                   .arg(m_revealable ? QStringLiteral("click to show") : QStringLiteral("hidden")));
}

HandView::HandView(const GameData& gameData, QWidget* parent) : QWidget(parent), d(gameData) {
    setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Expanding);
    setMouseTracking(true);
}

void HandView::setCards(const QList<int>& cards, int side, bool hidden, const QSet<int>& playable) {
    m_cards = cards;
    m_side = side;
    m_hidden = hidden;
    m_playable = playable;
    if (!m_cards.contains(m_selected))
        m_selected = -1;
    m_hover = -1;
    update();
}

void HandView::setSelected(int card) {
    m_selected = card;
    update();
}

QList<QRect> HandView::layout() const {
    QList<QRect> out;
    const int n = static_cast<int>(m_cards.size());
    if (n == 0)
        return out;
    const int W = width(), H = height();
    if (W > H * 1.6) {
        // One row, as tall as the space allows; overlapping if the cards do not fit side by side.
        const int ch = std::max(60, H - 2 * kGap);
        const int cw = static_cast<int>(ch / kAspect);
        const int full = n * cw + (n - 1) * kGap;
        int step = cw + kGap;
        int x0 = (W - full) / 2;
        if (full > W - 2 * kGap) {
            step = n > 1 ? (W - 2 * kGap - cw) / (n - 1) : 0;
            x0 = kGap;
        }
        for (int i = 0; i < n; ++i)
            out << QRect(x0 + i * step, kGap, cw, ch);
        return out;
    }
    // A grid.
    const int cols = std::max(1, (W - kGap) / (138 + kGap));
    const int cw = std::min(170, (W - kGap * (cols + 1)) / cols);
    const int ch = static_cast<int>(cw * kAspect);
    const int used = cols * cw + (cols - 1) * kGap;
    const int x0 = (W - used) / 2;
    for (int i = 0; i < n; ++i)
        out << QRect(x0 + (i % cols) * (cw + kGap), kGap + (i / cols) * (ch + kGap), cw, ch);
    return out;
}

QRect HandView::cardRect(int card) const {
    const int i = static_cast<int>(m_cards.indexOf(card));
    const QList<QRect> l = layout();
    return i >= 0 && i < l.size() ? l[i] : QRect();
}

int HandView::cardAt(const QPoint& pos) const {
    // The card drawn on top wins: the hovered and selected ones are drawn last.
    const QList<QRect> l = layout();
    for (int special : {m_hover, m_selected}) {
        const int i = static_cast<int>(m_cards.indexOf(special));
        if (i >= 0 && l[i].contains(pos))
            return special;
    }
    for (qsizetype i = l.size() - 1; i >= 0; --i)
        if (l[i].contains(pos))
            return m_cards[i];
    return -1;
}

void HandView::paintEvent(QPaintEvent*) {
    QPainter p(this);
    p.setRenderHint(QPainter::Antialiasing, true);
    if (m_cards.isEmpty()) {
        p.setPen(QColor(0xc8, 0xb8, 0x98));
        p.setFont(theme::serif(11));
        p.drawText(rect(), Qt::AlignCenter, QStringLiteral("No cards in hand"));
        return;
    }
    const QList<QRect> l = layout();
    auto draw = [&](qsizetype i) {
        const int c = m_cards[i];
        QRect r = l[i];
        if (m_hidden) {
            paintCardBack(p, r, m_side, theme::sideName(m_side));
            return;
        }
        if (c == m_hover || c == m_selected)
            r.translate(0, -4);
        CardLook look;
        look.selected = c == m_selected;
        look.dimmed = !m_playable.isEmpty() && !m_playable.contains(c);
        if (d.cards[c].combat && look.dimmed)
            look.badge = QStringLiteral("for battles");
        paintCard(p, r, d, c, look);
    };
    for (qsizetype i = 0; i < m_cards.size(); ++i)
        if (m_cards[i] != m_hover && m_cards[i] != m_selected)
            draw(i);
    if (m_selected >= 0 && m_selected != m_hover && m_cards.contains(m_selected))
        draw(m_cards.indexOf(m_selected));
    if (m_hover >= 0 && m_cards.contains(m_hover))
        draw(m_cards.indexOf(m_hover));
}

void HandView::mousePressEvent(QMouseEvent* e) {
    if (m_hidden)
        return;
    const int c = cardAt(e->pos());
    if (c >= 0) {
        setSelected(c);
        emit cardClicked(c);
    }
}

void HandView::mouseDoubleClickEvent(QMouseEvent* e) {
    if (m_hidden)
        return;
    const int c = cardAt(e->pos());
    if (c >= 0)
        emit cardDoubleClicked(c);
}

void HandView::mouseMoveEvent(QMouseEvent* e) {
    const int c = m_hidden ? -1 : cardAt(e->pos());
    if (c != m_hover) {
        m_hover = c;
        if (c >= 0)
            setToolTip(
                QStringLiteral("<b>%1 %2</b><br>%3")
                    .arg(d.cards[c].id, d.cards[c].title.toHtmlEscaped(), d.cards[c].event.toHtmlEscaped()));
        else
            setToolTip(QString());
        update();
    }
}

void HandView::leaveEvent(QEvent*) {
    m_hover = -1;
    update();
}

HandPanel::HandPanel(const GameData& gameData, QWidget* parent) : QWidget(parent) {
    auto* lay = new QHBoxLayout(this);
    lay->setContentsMargins(4, 0, 4, 0);
    lay->setSpacing(6);
    m_view = new HandView(gameData, this);
    m_view->setObjectName(QStringLiteral("handView"));
    m_opponent = new OpponentHand(this);
    m_opponent->setObjectName(QStringLiteral("opponentHand"));
    lay->addWidget(m_view, 1);
    lay->addWidget(m_opponent);
    connect(m_view, &HandView::cardClicked, this, &HandPanel::cardClicked);
    connect(m_view, &HandView::cardDoubleClicked, this, &HandPanel::cardDoubleClicked);
    connect(m_opponent, &OpponentHand::clicked, this, &HandPanel::opponentClicked);
    clear();
}

void HandPanel::setHand(int side, const QList<int>& cards, int opponentCount, bool hidden,
                        const QSet<int>& playable, bool revealable, const QString& note) {
    m_title = hidden ? QStringLiteral("Hand — %1 (hidden)").arg(theme::sideName(side))
                     : QStringLiteral("Hand — %1, %2 card%3")
                           .arg(theme::sideName(side))
                           .arg(cards.size())
                           .arg(cards.size() == 1 ? "" : "s");
    if (!note.isEmpty())
        m_title += QStringLiteral(" (%1)").arg(note);
    emit titleChanged(m_title);
    m_view->setCards(cards, side, hidden, playable);
    m_opponent->set(1 - side, opponentCount, revealable && !hidden);
    update();
}

void HandPanel::clear() {
    m_title = QStringLiteral("Hand");
    emit titleChanged(m_title);
    m_view->setCards({}, 0, false, {});
    m_opponent->set(-1, 0);
}

void HandPanel::paintEvent(QPaintEvent*) {
    QPainter p(this);
    QLinearGradient bg(0, 0, 0, height());
    bg.setColorAt(0, QColor(0x4a, 0x3a, 0x28));
    bg.setColorAt(1, QColor(0x2e, 0x24, 0x18));
    p.fillRect(rect(), bg);
}

} // namespace wp
