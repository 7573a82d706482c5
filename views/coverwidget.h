// Hotseat: the screen that covers the window between the players, so neither sees the other's hand.
#pragma once

#include <QWidget>

class QPushButton;
class QLabel;

namespace wp {

class CoverWidget : public QWidget {
    Q_OBJECT
  public:
    explicit CoverWidget(QWidget* parent);
    void showFor(int side, const QString& what); // cover the window until `side`'s player continues
    int side() const { return m_side; }
    QPushButton* continueButton() const { return m_continue; }

  signals:
    void revealed(int side);

  protected:
    void paintEvent(QPaintEvent* e) override;
    bool eventFilter(QObject* o, QEvent* e) override;

  private:
    int m_side = -1;
    QLabel* m_title;
    QLabel* m_text;
    QPushButton* m_continue;
};

} // namespace wp
