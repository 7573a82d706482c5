// A push button whose label wraps onto more lines when the panel is narrower than it (the Orders panel's
// choices: "No unit at full strength: all reduced (8.411)"). text() stays the whole label.
#pragma once

#include <QPushButton>

namespace wp {

class WrapButton : public QPushButton {
    Q_OBJECT
  public:
    WrapButton(const QString& text, QWidget* parent = nullptr);
    bool hasHeightForWidth() const override { return true; }
    int heightForWidth(int width) const override;
    QSize minimumSizeHint() const override;

  protected:
    void paintEvent(QPaintEvent* event) override;

  private:
    // The label broken at spaces into lines no wider than `width` pixels (a longer word stays whole).
    QString wrapped(int width) const;
    // What the style adds around the label (padding, border), in pixels.
    QSize frame() const;
};

} // namespace wp
