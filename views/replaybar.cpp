#include "replaybar.h"

#include "theme.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QToolButton>

namespace wp {

ReplayBar::ReplayBar(QWidget* parent) : QWidget(parent) {
    setObjectName(QStringLiteral("replayBar"));
    setAutoFillBackground(true);
    QPalette pal = palette();
    pal.setColor(QPalette::Window, theme::parchmentDark());
    setPalette(pal);
    auto* lay = new QHBoxLayout(this);
    lay->setContentsMargins(8, 4, 8, 4);
    auto tool = [this](const QString& text, const QString& tip, const QKeySequence& key) {
        auto* b = new QToolButton(this);
        b->setText(text);
        b->setToolTip(QStringLiteral("%1 (%2)").arg(tip, key.toString(QKeySequence::NativeText)));
        b->setShortcut(key);
        b->setAutoRaise(true);
        b->setFont(theme::sans(13, true));
        return b;
    };
    m_first =
        tool(QStringLiteral("|◀"), QStringLiteral("Before the first action"), QKeySequence(Qt::Key_Home));
    m_back = tool(QStringLiteral("◀"), QStringLiteral("One action back"), QKeySequence(Qt::Key_Left));
    m_forward = tool(QStringLiteral("▶"), QStringLiteral("One action forward"), QKeySequence(Qt::Key_Right));
    m_label = new QLabel(this);
    m_label->setObjectName(QStringLiteral("replayLabel"));
    m_label->setTextFormat(Qt::RichText);
    m_label->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred); // never widens the window
    m_label->setWordWrap(true); // a second line rather than a clipped one
    m_last = tool(QStringLiteral("▶|"), QStringLiteral("After the last action"),
                  QKeySequence(Qt::CTRL | Qt::Key_End));
    m_present = new QPushButton(QStringLiteral("Return to the present"), this);
    m_present->setObjectName(QStringLiteral("replayPresent"));
    m_present->setShortcut(QKeySequence(Qt::Key_End));
    m_close =
        tool(QStringLiteral("✕"), QStringLiteral("Close the step-through"), QKeySequence(Qt::Key_Escape));
    lay->addWidget(m_first);
    lay->addWidget(m_back);
    lay->addWidget(m_forward);
    lay->addWidget(m_last);
    lay->addWidget(m_label, 1);
    lay->addWidget(m_present);
    lay->addWidget(m_close);
    connect(m_first, &QToolButton::clicked, this, [this]() { seek(0); });
    connect(m_back, &QToolButton::clicked, this, [this]() { seek(m_pos - 1); });
    connect(m_forward, &QToolButton::clicked, this, [this]() { seek(m_pos + 1); });
    connect(m_last, &QToolButton::clicked, this, [this]() { seek(count() - 1); });
    connect(m_present, &QPushButton::clicked, this, [this]() { seek(count() - 1); });
    connect(m_close, &QToolButton::clicked, this, [this]() {
        clear();
        emit closed();
    });
    hide();
}

void ReplayBar::setSteps(std::vector<rules::GameState> states, QStringList texts, QList<int> sides,
                         int firstAction, const QString& title) {
    m_states = std::move(states);
    m_texts = std::move(texts);
    m_sides = std::move(sides);
    m_firstAction = firstAction;
    m_title = title;
    m_pos = 0;
    setVisible(hasSteps());
    update();
    emit positionChanged();
}

void ReplayBar::clear() {
    m_states.clear();
    m_texts.clear();
    m_sides.clear();
    m_pos = 0;
    hide();
}

void ReplayBar::seek(int pos) {
    if (!hasSteps())
        return;
    pos = std::clamp(pos, 0, count() - 1);
    if (pos == m_pos)
        return;
    m_pos = pos;
    update();
    emit positionChanged();
}

void ReplayBar::update() {
    if (!hasSteps())
        return;
    const int n = count() - 1; // actions held
    m_first->setEnabled(m_pos > 0);
    m_back->setEnabled(m_pos > 0);
    m_forward->setEnabled(m_pos < n);
    m_last->setEnabled(m_pos < n);
    m_present->setEnabled(m_pos < n);
    QString text = QStringLiteral("<b>%1</b> · ").arg(m_title.toHtmlEscaped());
    if (m_pos == 0) {
        text += QStringLiteral("before action %1 (%2 to see)").arg(m_firstAction + 1).arg(n);
    } else {
        const int side = m_sides.value(m_pos - 1, -1);
        text += QStringLiteral("action %1 of %2: <span style='color:%3'><b>%4</b></span> %5")
                    .arg(m_pos)
                    .arg(n)
                    .arg(theme::sideColor(side).name(), side >= 0 ? theme::sideName(side) : QString(),
                         m_texts.value(m_pos - 1).toHtmlEscaped());
    }
    if (m_pos == n)
        text += QStringLiteral(" — <i>the present</i>");
    else
        text += QStringLiteral(" — <i>the past (read-only)</i>");
    m_label->setText(text);
}

} // namespace wp
