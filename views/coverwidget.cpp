#include "coverwidget.h"

#include "theme.h"

#include <QEvent>
#include <QLabel>
#include <QPainter>
#include <QPushButton>
#include <QRadialGradient>
#include <QVBoxLayout>

namespace wp {

CoverWidget::CoverWidget(QWidget* parent) : QWidget(parent) {
    setObjectName(QStringLiteral("coverScreen"));
    auto* lay = new QVBoxLayout(this);
    lay->addStretch(2);
    m_title = new QLabel(this);
    m_title->setAlignment(Qt::AlignHCenter);
    m_title->setFont(theme::serif(30, true));
    m_title->setStyleSheet(QStringLiteral("QLabel { color: #f4ecd8; }"));
    lay->addWidget(m_title);
    m_text = new QLabel(this);
    m_text->setAlignment(Qt::AlignHCenter);
    m_text->setWordWrap(true);
    m_text->setFont(theme::serif(13));
    m_text->setStyleSheet(QStringLiteral("QLabel { color: #e8dcc0; }"));
    lay->addWidget(m_text);
    lay->addSpacing(24);
    m_continue = new QPushButton(this);
    m_continue->setObjectName(QStringLiteral("coverContinue"));
    m_continue->setProperty("primary", true);
    m_continue->setMinimumHeight(44);
    m_continue->setFont(theme::sans(12, true));
    auto* row = new QHBoxLayout();
    row->addStretch(1);
    row->addWidget(m_continue);
    row->addStretch(1);
    lay->addLayout(row);
    lay->addStretch(3);
    connect(m_continue, &QPushButton::clicked, this, [this]() {
        hide();
        emit revealed(m_side);
    });
    parent->installEventFilter(this);
    hide();
}

void CoverWidget::showFor(int side, const QString& what) {
    m_side = side;
    m_title->setText(QStringLiteral("%1 player").arg(theme::sideName(side)));
    m_text->setText(
        QStringLiteral("%1<br><br>Hand the computer to the %2 player. The other player looks away.")
            .arg(what.toHtmlEscaped(), theme::sideName(side)));
    m_continue->setText(QStringLiteral("  I am the %1 player — show my hand  ").arg(theme::sideName(side)));
    setGeometry(parentWidget()->rect());
    show();
    raise();
    m_continue->setFocus();
}

bool CoverWidget::eventFilter(QObject* o, QEvent* e) {
    if (o == parentWidget() && e->type() == QEvent::Resize)
        setGeometry(parentWidget()->rect());
    return QWidget::eventFilter(o, e);
}

void CoverWidget::paintEvent(QPaintEvent*) {
    QPainter p(this);
    p.setRenderHint(QPainter::Antialiasing, true);
    QRadialGradient g(rect().center(), std::max(width(), height()) * 0.7);
    g.setColorAt(0, theme::sideDark(m_side).lighter(140));
    g.setColorAt(1, QColor(0x1a, 0x12, 0x0a));
    p.fillRect(rect(), g);
    // A heraldic border.
    p.setPen(QPen(QColor(0xc8, 0x96, 0x1e, 160), 3));
    p.setBrush(Qt::NoBrush);
    p.drawRoundedRect(QRectF(rect()).adjusted(24, 24, -24, -24), 14, 14);
    p.setPen(QPen(QColor(0xc8, 0x96, 0x1e, 90), 1));
    p.drawRoundedRect(QRectF(rect()).adjusted(32, 32, -32, -32), 10, 10);
}

} // namespace wp
